// Node (build): the extension's Preact without its one innerHTML write, so that the store packages lint clean.
//
// Preact's diff supports `dangerouslySetInnerHTML` with `dom.innerHTML = props.dangerouslySetInnerHTML.__html`.
// AMO's linter (web-ext lint) flags that line as UNSAFE_VAR_ASSIGNMENT in the panel bundle, and store reviewers read
// it as "this extension writes HTML". The panel never does: it renders text only (lint bans the prop, react/no-danger;
// the Markdown renderer's test checks it), and Preact offers no build flag to leave the feature out. So this plugin
// replaces that one assignment, in Preact's own module as it enters the build, with a throw naming why: the feature is
// gone, not hidden. The build fails if the line is not found exactly once (a Preact upgrade moved it: look again).
import type { Plugin } from 'vite';

/** Preact's ESM build, which `preact` resolves to (package.json exports). */
const PREACT_MODULE = /[\\/]node_modules[\\/]preact[\\/]dist[\\/]preact\.mjs(?:\?.*)?$/;

/** The assignment in Preact 11's minified diff: `t.innerHTML=h.__html` (names vary by release). */
const INNER_HTML_WRITE = /\b[\w$]+\.innerHTML=[\w$]+\.__html\b/g;

export const REFUSAL =
  'dangerouslySetInnerHTML is not supported in this extension: the panel renders text only (scripts/build/preact-without-inner-html.ts)';

/** Preact's module text with its innerHTML write replaced by a throw; an error when the write is not there once. */
export function withoutInnerHtml(code: string): string {
  const sites = code.match(INNER_HTML_WRITE) ?? [];
  if (sites.length !== 1) {
    throw new Error(
      `preact-without-inner-html: expected one innerHTML write in Preact's module, found ${sites.length}; update the pattern after reading Preact's diff`,
    );
  }
  // An expression, as the assignment was (it sits inside a `||` chain).
  return code.replace(INNER_HTML_WRITE, `(()=>{throw new Error(${JSON.stringify(REFUSAL)})})()`);
}

export function preactWithoutInnerHtml(): Plugin {
  return {
    name: 'mcp-preact-without-inner-html',
    transform(code, id) {
      if (!PREACT_MODULE.test(id)) return null;
      return { code: withoutInnerHtml(code), map: null };
    },
  };
}
