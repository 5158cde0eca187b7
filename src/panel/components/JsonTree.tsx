// Panel: a collapsible JSON tree. Values are page data: they are only ever text children.
import { useState } from 'preact/hooks';

const PAGE = 200;

export function JsonTree({ value, expandDepth = 2 }: { value: unknown; expandDepth?: number }) {
  return (
    <div class="json-tree mono" role="tree">
      <JsonNode label={undefined} value={value} depth={0} expandDepth={expandDepth} />
    </div>
  );
}

/** `{}`, or the first three keys: `{a, b, c, …}`. */
function objectSummary(keys: readonly string[]): string {
  if (keys.length === 0) return '{}';
  return `{${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', …' : ''}}`;
}

function JsonNode({
  label,
  value,
  depth,
  expandDepth,
}: {
  label: string | undefined;
  value: unknown;
  depth: number;
  expandDepth: number;
}) {
  const [open, setOpen] = useState(depth < expandDepth);
  const [limit, setLimit] = useState(PAGE);
  const key = label !== undefined ? <span class="json-key">{label}: </span> : null;
  if (value === null || typeof value !== 'object') {
    return (
      <div class="json-row" role="treeitem" style={{ paddingLeft: `${depth * 12 + 16}px` }}>
        {key}
        <Primitive value={value} />
      </div>
    );
  }
  const isArray = Array.isArray(value);
  const entries: Array<[string, unknown]> = isArray ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const summary = isArray ? `Array(${entries.length})` : objectSummary(entries.map(([k]) => k));
  return (
    <div role="treeitem" aria-expanded={open}>
      <button
        type="button"
        class="json-row json-toggle"
        style={{ paddingLeft: `${depth * 12 + 4}px` }}
        onClick={() => setOpen(!open)}
      >
        <span class={`json-caret ${open ? 'open' : ''}`} aria-hidden="true" />
        {key}
        <span class="json-summary">{summary}</span>
      </button>
      {open ? (
        <div role="group">
          {entries.slice(0, limit).map(([k, v]) => (
            <JsonNode key={k} label={k} value={v} depth={depth + 1} expandDepth={expandDepth} />
          ))}
          {entries.length > limit ? (
            <button
              type="button"
              class="json-row json-more"
              style={{ paddingLeft: `${(depth + 1) * 12 + 16}px` }}
              onClick={() => setLimit(limit + PAGE * 5)}
            >
              Show more ({entries.length - limit} left)
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function Primitive({ value }: { value: unknown }) {
  if (typeof value === 'string') return <span class="json-string">"{value}"</span>;
  if (typeof value === 'number') return <span class="json-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span class="json-bool">{String(value)}</span>;
  return <span class="json-null">null</span>;
}
