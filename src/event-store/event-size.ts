// Runs in any server runtime: the size a stored event counts against the byte budget. Pure.

/** Nesting deeper than any MCP message: a cyclic object (never JSON) stops here instead of looping. */
const MAX_DEPTH = 64;

function scalarSize(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'number') return 8;
  if (typeof value === 'boolean') return 5;
  return value === null ? 4 : 0;
}

/** One member's size; strings are tested first and nested values recursed into without a call per scalar (2x). */
function memberSize(value: unknown, depth: number): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'object' && value !== null) return depth < MAX_DEPTH ? objectSize(value, depth + 1) : 0;
  return scalarSize(value);
}

function objectSize(value: object, depth: number): number {
  let total = 2;
  if (Array.isArray(value)) {
    const items = value as unknown[];
    for (let i = 0; i < items.length; i++) total += 1 + memberSize(items[i], depth);
    return total;
  }
  // for-in without an own-property check (twice as fast): a message is plain JSON data; only a polluted
  // Object.prototype would add keys, and then the estimate errs high, the safe side of a budget.
  const record = value as Record<string, unknown>;
  for (const key in record) total += key.length + 4 + memberSize(record[key], depth);
  return total;
}

/**
 * The length of `value`'s JSON text, estimated without building it: strings by their length (UTF-16 code units, what
 * a JS string holds in memory; escapes not counted), 8 per number, the punctuation of objects and arrays. Walks the
 * value's nodes, not its bytes: a 4 MB text costs what a short one does (JSON.stringify would copy it all, and on a
 * small event cost the store about as much again as the rest of its work: bench/guard-store.bench.ts).
 */
export function estimateJsonSize(value: unknown): number {
  return typeof value === 'object' && value !== null ? objectSize(value, 0) : scalarSize(value);
}
