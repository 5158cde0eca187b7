// Node (benches): runs a self-contained function in a page (the bench page or the panel page) and returns its
// JSON result.
import type { Page } from '@playwright/test';

/**
 * Evaluates `fn(arg)` in `page`. The source is sent as text with a `__name` stand-in: tsx (esbuild) wraps named
 * inner functions in `__name(fn, "name")`, a helper that exists only in Node, so the function would throw in the page.
 */
export async function inPage<A, R>(page: Page, fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
  const source = `(() => { const __name = (f) => f; return (${fn.toString()})(${JSON.stringify(arg) ?? 'undefined'}); })()`;
  return (await page.evaluate(source)) as R;
}
