// Panel: renders parsed Markdown as elements with text children only (no innerHTML anywhere).
import type { ComponentChildren } from 'preact';
import { parseMarkdown, type Block, type Inline } from './parse';

/** Maps a link target to a safe href, or undefined to show the link as plain text. */
export type LinkResolver = (href: string) => string | undefined;

/** Optionally turns an inline code span into a link (rule ids in rule docs); undefined keeps it plain. */
export type CodeLinker = (code: string) => string | undefined;

interface RenderOptions {
  resolveLink: LinkResolver;
  linkCode?: CodeLinker;
}

/** Only web links and links to other rule pages survive; javascript:, data: and the like become text. */
export function defaultResolveLink(href: string): string | undefined {
  if (/^https?:\/\//i.test(href)) return href;
  return undefined;
}

export function Markdown({
  source,
  resolveLink = defaultResolveLink,
  linkCode,
}: {
  source: string;
  resolveLink?: LinkResolver;
  linkCode?: CodeLinker;
}) {
  const options: RenderOptions = { resolveLink, ...(linkCode ? { linkCode } : {}) };
  return <div class="markdown">{parseMarkdown(source).map((block, key) => renderBlock(block, key, options))}</div>;
}

function renderBlock(block: Block, key: number, options: RenderOptions): ComponentChildren {
  const inline = (spans: readonly Inline[]) => renderInline(spans, options);
  switch (block.kind) {
    case 'heading': {
      const Tag = `h${Math.min(block.level + 1, 6)}` as 'h2' | 'h3' | 'h4' | 'h5' | 'h6';
      return <Tag key={key}>{inline(block.children)}</Tag>;
    }
    case 'paragraph':
      return <p key={key}>{inline(block.children)}</p>;
    case 'list': {
      const items = block.items.map((item, i) => <li key={i}>{inline(item)}</li>);
      return block.ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>;
    }
    case 'code':
      return (
        <pre key={key} data-lang={block.lang || undefined}>
          <code>{block.text}</code>
        </pre>
      );
    case 'quote':
      return <blockquote key={key}>{inline(block.children)}</blockquote>;
    case 'table':
      return (
        <table key={key}>
          <thead>
            <tr>
              {block.head.map((cell, i) => (
                <th key={i}>{inline(cell)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {block.rows.map((row, r) => (
              <tr key={r}>
                {row.map((cell, i) => (
                  <td key={i}>{inline(cell)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      );
    case 'rule':
      return <hr key={key} />;
  }
}

function renderInline(spans: readonly Inline[], options: RenderOptions): ComponentChildren[] {
  return spans.map((span, key) => {
    switch (span.kind) {
      case 'text':
        return span.text;
      case 'code': {
        const href = options.linkCode?.(span.text);
        const code = <code key={key}>{span.text}</code>;
        return href === undefined ? (
          code
        ) : (
          <a key={key} href={href} target="_blank" rel="noopener noreferrer">
            {code}
          </a>
        );
      }
      case 'strong':
        return <strong key={key}>{renderInline(span.children, options)}</strong>;
      case 'em':
        return <em key={key}>{renderInline(span.children, options)}</em>;
      case 'link': {
        const href = options.resolveLink(span.href);
        const children = renderInline(span.children, options);
        if (href === undefined) return <span key={key}>{children}</span>;
        return (
          <a key={key} href={href} target="_blank" rel="noopener noreferrer">
            {children}
          </a>
        );
      }
    }
  });
}
