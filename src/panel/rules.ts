// Panel: rule metadata and doc pages, bundled into the extension so a finding explains itself offline.
import { ruleById } from '../core/guard/index';
import type { RuleMeta } from '../core/guard/types';

const docs = import.meta.glob<string>('../core/guard/rules/*.md', { query: '?raw', import: 'default', eager: true });

export function ruleDoc(id: string): string | undefined {
  return docs[`../core/guard/rules/${id}.md`];
}

export function ruleMeta(id: string): RuleMeta | undefined {
  return ruleById(id);
}

/** The panel page itself shows a rule's doc page when opened with ?rule=<id> (works in DevTools, a tab, offline). */
export function ruleDocHref(id: string): string {
  return `?rule=${encodeURIComponent(id)}`;
}

/** Links inside doc pages: other rules' pages stay inside the extension, web links open as such, the rest is text. */
export function resolveDocLink(href: string): string | undefined {
  const rule = /^(?:\.\/)?([a-z0-9]+(?:-[a-z0-9]+)*)\.md(?:#.*)?$/.exec(href);
  if (rule?.[1] && ruleDoc(rule[1]) !== undefined) return ruleDocHref(rule[1]);
  if (/^https?:\/\//i.test(href)) return href;
  return undefined;
}

/** A code span naming another rule links to its page. */
export function ruleCodeLink(code: string): string | undefined {
  return ruleDoc(code) !== undefined ? ruleDocHref(code) : undefined;
}

/** The doc page without its "# <id>" title line (the panel shows the id itself). */
export function ruleDocBody(id: string): string | undefined {
  const page = ruleDoc(id);
  if (page === undefined) return undefined;
  const title = `# ${id}`;
  return page.startsWith(title) ? page.slice(title.length).replace(/^[ \t]*\r?\n/, '') : page;
}
