import { describe, expect, it } from 'vitest';
import type { VNode } from 'preact';
import { Markdown } from './Markdown';
import { inlineText, parseInline, parseMarkdown } from './parse';

/** Walks rendered vnodes the way a DOM would be built: element types, their props, and text nodes. */
function walk(node: unknown, visit: (n: VNode | string) => void): void {
  if (node === null || node === undefined || typeof node === 'boolean') return;
  if (Array.isArray(node)) return node.forEach((n) => walk(n, visit));
  if (typeof node === 'string' || typeof node === 'number') return visit(String(node));
  const vnode = node as VNode<Record<string, unknown>>;
  if (typeof vnode.type === 'function') return walk((vnode.type as (p: unknown) => unknown)(vnode.props), visit);
  visit(vnode);
  walk(vnode.props.children, visit);
}

function render(source: string) {
  const tags: string[] = [];
  const texts: string[] = [];
  const props: Array<Record<string, unknown>> = [];
  walk(<Markdown source={source} />, (n) => {
    if (typeof n === 'string') texts.push(n);
    else {
      tags.push(String(n.type));
      props.push(n.props);
    }
  });
  return { tags, texts, props };
}

describe('markdown parser', () => {
  it('reads headings, paragraphs, lists and fenced code', () => {
    const blocks = parseMarkdown(
      '# torn-event-reconnect\n\nA connection ended\nholding an event.\n\n- one\n- two\n  continued\n\n1. first\n2. second\n\n```http\nGET /mcp\nLast-Event-ID: 5\n```\n',
    );
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'list', 'list', 'code']);
    expect(blocks[1]).toEqual({
      kind: 'paragraph',
      children: [{ kind: 'text', text: 'A connection ended holding an event.' }],
    });
    const list = blocks[2];
    expect(list?.kind === 'list' && list.items.map(inlineText)).toEqual(['one', 'two continued']);
    expect(blocks[3]).toMatchObject({ kind: 'list', ordered: true });
    expect(blocks[4]).toEqual({ kind: 'code', lang: 'http', text: 'GET /mcp\nLast-Event-ID: 5' });
  });

  it('reads inline code, strong, emphasis and links', () => {
    expect(
      parseInline('send `Last-Event-ID` **only** after a *complete* event, see [spec](https://example.org/x)'),
    ).toEqual([
      { kind: 'text', text: 'send ' },
      { kind: 'code', text: 'Last-Event-ID' },
      { kind: 'text', text: ' ' },
      { kind: 'strong', children: [{ kind: 'text', text: 'only' }] },
      { kind: 'text', text: ' after a ' },
      { kind: 'em', children: [{ kind: 'text', text: 'complete' }] },
      { kind: 'text', text: ' event, see ' },
      { kind: 'link', href: 'https://example.org/x', children: [{ kind: 'text', text: 'spec' }] },
    ]);
  });

  it('leaves snake_case words and lone stars alone', () => {
    expect(inlineText(parseInline('last_event_id is 2 * 3'))).toBe('last_event_id is 2 * 3');
    expect(parseInline('last_event_id')).toEqual([{ kind: 'text', text: 'last_event_id' }]);
  });

  it('reads a simple table', () => {
    const [table] = parseMarkdown('| era | resumable |\n|---|---|\n| 2025-11-25 | yes |\n| 2026-07-28 | no |');
    expect(table?.kind).toBe('table');
    if (table?.kind !== 'table') return;
    expect(table.head.map(inlineText)).toEqual(['era', 'resumable']);
    expect(table.rows.map((r) => r.map(inlineText))).toEqual([
      ['2025-11-25', 'yes'],
      ['2026-07-28', 'no'],
    ]);
  });
});

describe('markdown renderer', () => {
  it('renders HTML in the source as text, never as elements', () => {
    const { tags, texts, props } = render(
      'Hello <img src=x onerror="alert(1)"> world\n\n<script>alert(2)</script>\n\n`<b>code</b>`',
    );
    expect(tags).not.toContain('img');
    expect(tags).not.toContain('script');
    expect(tags).not.toContain('b');
    expect(texts.join('')).toContain('<img src=x onerror="alert(1)">');
    expect(texts.join('')).toContain('<script>alert(2)</script>');
    expect(texts).toContain('<b>code</b>');
    expect(props.some((p) => 'dangerouslySetInnerHTML' in p)).toBe(false);
  });

  it('drops unsafe link targets but keeps their text', () => {
    const { tags, texts, props } = render('[click](javascript:alert(1)) and [docs](https://modelcontextprotocol.io/)');
    const anchors = props.filter((p) => typeof p.href === 'string');
    expect(anchors.map((p) => p.href)).toEqual(['https://modelcontextprotocol.io/']);
    expect(tags.filter((t) => t === 'a')).toHaveLength(1);
    expect(texts).toContain('click');
  });

  it('renders structure as elements', () => {
    const { tags } = render('# Title\n\ntext\n\n- a\n\n```\ncode\n```');
    expect(tags).toEqual(['div', 'h2', 'p', 'ul', 'li', 'pre', 'code']);
  });
});
