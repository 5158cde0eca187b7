// Panel (pure): a small Markdown parser for the rule doc pages. It builds a tree of plain strings; the renderer
// turns it into elements, so nothing in a document can ever become HTML.

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'em'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] };

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { kind: 'paragraph'; children: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'quote'; children: Inline[] }
  | { kind: 'table'; head: Inline[][]; rows: Inline[][][] }
  | { kind: 'rule' };

const FENCE = /^\s{0,3}(```+|~~~+)\s*([\w+-]*)/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1] as string;
      const body: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] as string).trimStart().startsWith(marker)) body.push(lines[i++] as string);
      i++; // closing fence (or end of input)
      blocks.push({ kind: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = (heading[1] as string).length as 1 | 2 | 3 | 4 | 5 | 6;
      blocks.push({ kind: 'heading', level, children: parseInline(heading[2] ?? '') });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: 'rule' });
      i++;
      continue;
    }
    if (line.trimStart().startsWith('|') && TABLE_SEPARATOR.test(lines[i + 1] ?? '')) {
      const head = splitRow(line);
      const rows: Inline[][][] = [];
      i += 2;
      while (i < lines.length && (lines[i] as string).trimStart().startsWith('|'))
        rows.push(splitRow(lines[i++] as string));
      blocks.push({ kind: 'table', head, rows });
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const ordered = /\d/.test(item[2] as string);
      const items: string[] = [];
      while (i < lines.length) {
        const current = lines[i] as string;
        const next = ITEM.exec(current);
        if (next && /\d/.test(next[2] as string) === ordered) {
          items.push(next[3] ?? '');
        } else if (current.trim() !== '' && /^\s/.test(current) && items.length > 0) {
          items[items.length - 1] += ` ${current.trim()}`; // continuation of the item above
        } else {
          break;
        }
        i++;
      }
      blocks.push({ kind: 'list', ordered, items: items.map(parseInline) });
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      const text: string[] = [];
      while (i < lines.length) {
        const q = QUOTE.exec(lines[i] as string);
        if (!q) break;
        text.push(q[1] ?? '');
        i++;
      }
      blocks.push({ kind: 'quote', children: parseInline(text.join(' ')) });
      continue;
    }
    const text: string[] = [];
    while (i < lines.length) {
      const current = lines[i] as string;
      if (
        current.trim() === '' ||
        FENCE.test(current) ||
        HEADING.test(current) ||
        ITEM.test(current) ||
        QUOTE.test(current)
      )
        break;
      text.push(current.trim());
      i++;
    }
    blocks.push({ kind: 'paragraph', children: parseInline(text.join(' ')) });
  }
  return blocks;
}

function splitRow(line: string): Inline[][] {
  const trimmed = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return trimmed.split('|').map((cell) => parseInline(cell.trim()));
}

/** Inline spans: `code`, **strong**, *em* / _em_, [text](href). Anything else, HTML included, stays text. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  const flush = () => {
    if (plain) out.push({ kind: 'text', text: plain });
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '\\' && i + 1 < text.length && /[\\`*_[\]()#|<>-]/.test(text[i + 1] as string)) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`') {
      const ticks = /^`+/.exec(text.slice(i))?.[0] ?? '`';
      const close = text.indexOf(ticks, i + ticks.length);
      if (close > 0) {
        flush();
        out.push({ kind: 'code', text: text.slice(i + ticks.length, close).replace(/^ (.+) $/, '$1') });
        i = close + ticks.length;
        continue;
      }
    }
    if ((ch === '*' || ch === '_') && text[i + 1] === ch) {
      const close = text.indexOf(ch + ch, i + 2);
      if (close > i + 2) {
        flush();
        out.push({ kind: 'strong', children: parseInline(text.slice(i + 2, close)) });
        i = close + 2;
        continue;
      }
    }
    if (
      (ch === '*' || ch === '_') &&
      text[i + 1] !== ' ' &&
      (ch === '*' || i === 0 || !/\w/.test(text[i - 1] as string))
    ) {
      const close = findEmphasisClose(text, ch, i + 1);
      if (close > i + 1) {
        flush();
        out.push({ kind: 'em', children: parseInline(text.slice(i + 1, close)) });
        i = close + 1;
        continue;
      }
    }
    if (ch === '[') {
      const link = /^\[([^\]]*)\]\(([^)\s]*)\)/.exec(text.slice(i));
      if (link) {
        flush();
        out.push({ kind: 'link', href: link[2] ?? '', children: parseInline(link[1] ?? '') });
        i += link[0].length;
        continue;
      }
    }
    plain += ch;
    i++;
  }
  flush();
  return out;
}

function findEmphasisClose(text: string, ch: string, from: number): number {
  for (let j = from; j < text.length; j++) {
    if (text[j] !== ch || text[j - 1] === ' ') continue;
    if (text[j + 1] === ch) {
      j++;
      continue;
    }
    if (ch === '_' && /\w/.test(text[j + 1] ?? '')) continue;
    return j;
  }
  return -1;
}

/** Plain text of inline spans (for titles and tests). */
export function inlineText(spans: readonly Inline[]): string {
  return spans.map((s) => (s.kind === 'text' || s.kind === 'code' ? s.text : inlineText(s.children))).join('');
}
