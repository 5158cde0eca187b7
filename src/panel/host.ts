// Panel page: tells an extension page from a plain web page without touching extension APIs, so the panel
// can load src/platform (webextension-polyfill refuses to load outside an extension) only when it may.

export function isExtensionPage(): boolean {
  const g = globalThis as { browser?: { runtime?: { id?: string } }; chrome?: { runtime?: { id?: string } } };
  // A normal web page in Chrome has a `chrome` object without a runtime id: that is not an extension context.
  return Boolean(g.browser?.runtime?.id ?? g.chrome?.runtime?.id);
}

/** The panel page's `?truncate=<bytes>`: payloads above this size are cut in the table and detail (default 4 KiB). */
export function truncateParam(params: URLSearchParams): number | undefined {
  const value = params.get('truncate');
  if (value === null || !/^\d{1,9}$/.test(value)) return undefined;
  return Number(value);
}
