// Panel page: tells an extension page from a plain web page without touching extension APIs, so the panel
// can load src/platform (webextension-polyfill refuses to load outside an extension) only when it may.

export function isExtensionPage(): boolean {
  const g = globalThis as { browser?: { runtime?: { id?: string } }; chrome?: { runtime?: { id?: string } } };
  // A normal web page in Chrome has a `chrome` object without a runtime id: that is not an extension context.
  return Boolean(g.browser?.runtime?.id ?? g.chrome?.runtime?.id);
}
