// Node (vitest): every relative link in README.md, INTERNALS.md and docs/**/*.md points to a file that exists and,
// when it names a heading (`#anchor`), to a heading of that file as GitHub anchors it. Links to http(s), mailto and
// other schemes are skipped: nothing here goes to the network.
//
// The Markdown is read with the panel's own parser (src/panel/markdown/parse.ts: fences, headings, tables, lists,
// inline code and links, the one that renders the rule doc pages). No Markdown library is installed in this
// project, and that parser already knows what is a link and what is code (a `[x](y)` inside backticks or a fenced
// block is not a link), which a regular expression over the text would not.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Block, type Inline, inlineText, parseMarkdown } from '../src/panel/markdown/parse';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** GitHub's anchor for a heading: lowercase, punctuation dropped (but `-` and `_`), each space a `-`. */
export function githubAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

function inlineLinks(spans: readonly Inline[], out: string[]): void {
  for (const span of spans) {
    if (span.kind === 'link') out.push(span.href);
    if (span.kind === 'link' || span.kind === 'strong' || span.kind === 'em') inlineLinks(span.children, out);
  }
}

/** Every link (and image) target of a document, in order. */
export function linksOf(blocks: readonly Block[]): string[] {
  const out: string[] = [];
  for (const block of blocks) {
    if (block.kind === 'paragraph' || block.kind === 'heading' || block.kind === 'quote')
      inlineLinks(block.children, out);
    else if (block.kind === 'list') for (const item of block.items) inlineLinks(item, out);
    else if (block.kind === 'table')
      for (const row of [block.head, ...block.rows]) for (const c of row) inlineLinks(c, out);
  }
  return out;
}

/** The anchors a document's headings get on GitHub (a repeated heading gets -1, -2, ...). */
export function anchorsOf(blocks: readonly Block[]): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const block of blocks) {
    if (block.kind !== 'heading') continue;
    const base = githubAnchor(inlineText(block.children));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** What is wrong with one link of `file`, or undefined when it resolves (or is not ours to check). */
export function checkLink(file: string, href: string, anchorsIn: (file: string) => Set<string>): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return undefined; // http(s):, mailto:, chrome:, ...: not a file here
  const hash = href.indexOf('#');
  const pathPart = decodeURI(hash < 0 ? href : href.slice(0, hash));
  const anchor = hash < 0 ? undefined : decodeURIComponent(href.slice(hash + 1));
  const target = pathPart === '' ? file : resolve(dirname(file), pathPart);
  if (!existsSync(target)) return `${href}: no such file`;
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(target).isDirectory() || !target.endsWith('.md'))
    return `${href}: an anchor into a file that is not Markdown`;
  if (!anchorsIn(target).has(anchor)) return `${href}: no heading "#${anchor}" in ${relative(ROOT, target)}`;
  return undefined;
}

function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const parsed = new Map<string, Block[]>();
function blocksOf(file: string): Block[] {
  let blocks = parsed.get(file);
  if (!blocks) {
    blocks = parseMarkdown(readFileSync(file, 'utf8'));
    parsed.set(file, blocks);
  }
  return blocks;
}
const anchorsIn = (file: string) => anchorsOf(blocksOf(file));

describe('links in the documentation', () => {
  const files = [join(ROOT, 'README.md'), join(ROOT, 'INTERNALS.md'), ...markdownUnder(join(ROOT, 'docs'))];
  for (const file of files) {
    it(`${relative(ROOT, file)}: every relative link resolves, file and heading`, () => {
      const dead = linksOf(blocksOf(file))
        .map((href) => checkLink(file, href, anchorsIn))
        .filter((problem) => problem !== undefined);
      expect(dead).toEqual([]);
    });
  }
});

describe('the checker itself', () => {
  it('anchors as GitHub does', () => {
    expect(githubAnchor('In a Playwright test: `mcpReplay`')).toBe('in-a-playwright-test-mcpreplay');
    expect(githubAnchor('The fault lab and `npm start`')).toBe('the-fault-lab-and-npm-start');
    expect(githubAnchor('Budgets, and what happens at them')).toBe('budgets-and-what-happens-at-them');
    expect(githubAnchor('CI formats: `--format sarif | junit | github`')).toBe(
      'ci-formats---format-sarif--junit--github',
    );
    const blocks = parseMarkdown('# A\n\n## Limits\n\n### Limits\n');
    expect([...anchorsOf(blocks)]).toEqual(['a', 'limits', 'limits-1']);
  });

  it('finds links in paragraphs, lists and tables, and none in code', () => {
    const blocks = parseMarkdown(
      'See [a](a.md) and ![shot](b.png).\n\n- **[c](c.md#x)**\n\n| k | v |\n| - | - |\n| [d](d.md) | `[e](e.md)` |\n\n```\n[f](f.md)\n```\n',
    );
    expect(linksOf(blocks)).toEqual(['a.md', 'b.png', 'c.md#x', 'd.md']);
  });

  it('reports a missing file and a missing heading, and skips the network', () => {
    const readme = join(ROOT, 'README.md');
    expect(checkLink(readme, 'docs/no-such-page.md', anchorsIn)).toMatch(/no such file/);
    expect(checkLink(readme, 'INTERNALS.md#no-such-heading', anchorsIn)).toMatch(/no heading/);
    expect(checkLink(readme, 'https://example.invalid/nowhere.md#x', anchorsIn)).toBeUndefined();
    expect(checkLink(readme, '#no-such-heading-here', anchorsIn)).toMatch(/no heading/);
  });
});
