// Panel: renders parsed Markdown as elements with text children only (no innerHTML anywhere).
import type { ComponentChildren } from 'preact';
import { parseMarkdown, type Block, type Inline } from './parse';

/** Maps a link target to a safe href, or undefined to show the link as plain text. */
export type LinkResolver = (href: string) => string | undefined;

/** Only web links and links to other rule pages survive; javascript:, data: and the like become text. */
export function defaultResolveLink(href: string): string | undefined {
  if (/^https?:\/\//i.test(href)) return href;
  return undefined;
}

export function Markdown({ source, resolveLink = defaultResolveLink }: { source: string; resolveLink?: LinkResolver }) {
  return <div class="markdown">{renderBlocks(parseMarkdown(source), resolveLink)}</div>;
}

export function renderBlocks(blocks: readonly Block[], resolveLink: LinkResolver): ComponentChildren[] {
  return blocks.map((block, key) => renderBlock(block, key, resolveLink));
}

function renderBlock(block: Block, key: number, resolveLink: LinkResolver): ComponentChildren {
  const inline = (spans: readonly Inline[]) => renderInline(spans, resolveLink);
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
            <tr>{block.head.map((cell, i) => <th key={i}>{inline(cell)}</th>)}</tr>
          </thead>
          <tbody>
            {block.rows.map((row, r) => (
              <tr key={r}>{row.map((cell, i) => <td key={i}>{inline(cell)}</td>)}</tr>
            ))}
          </tbody>
        </table>
      );
    case 'rule':
      return <hr key={key} />;
  }
}

export function renderInline(spans: readonly Inline[], resolveLink: LinkResolver): ComponentChildren[] {
  return spans.map((span, key) => {
    switch (span.kind) {
      case 'text':
        return span.text;
      case 'code':
        return <code key={key}>{span.text}</code>;
      case 'strong':
        return <strong key={key}>{renderInline(span.children, resolveLink)}</strong>;
      case 'em':
        return <em key={key}>{renderInline(span.children, resolveLink)}</em>;
      case 'link': {
        const href = resolveLink(span.href);
        const children = renderInline(span.children, resolveLink);
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
