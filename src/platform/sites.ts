// Pure (settings, background, panel): the sites the user picked for recording, and the content scripts that follow
// from the "Record on" setting. A site is a scheme and a host ("https://example.com", "http://127.0.0.1"): every port
// and path of it, as a match pattern without a port matches them in Chrome and Firefox alike (Firefox's patterns
// cannot name a port at all).

export type RecordOn = 'every-site' | 'picked-sites';

/** The schemes a site can be picked for: the pages whose fetch and EventSource traffic the tap records. */
const SITE_SCHEMES = new Set(['http:', 'https:']);

/** A host a match pattern can name: letters, digits, dots, dashes, or a bracketed IPv6 address. */
const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/;

/** A loopback host as typed without a scheme: a local dev server is plain http far more often than not. */
const LOOPBACK = /^(?:localhost|[^/:]+\.localhost|127(?:\.\d{1,3}){3}|\[::1\])(?:[:/]|$)/i;

/**
 * The site of a page URL or of what the user typed ("example.com", "http://localhost:3000/mcp"), or undefined.
 * Typed without a scheme, a host is https, a loopback one http.
 */
export function siteOf(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const typed = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)
    ? trimmed
    : `${LOOPBACK.test(trimmed) ? 'http' : 'https'}://${trimmed}`;
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    return undefined;
  }
  if (!SITE_SCHEMES.has(url.protocol) || !HOST.test(url.hostname)) return undefined;
  return `${url.protocol}//${url.hostname}`;
}

/** The picked sites as stored: valid ones only, each once, in the order picked. */
export function normalizeSites(stored: unknown): string[] {
  if (!Array.isArray(stored)) return [];
  const sites: string[] = [];
  for (const entry of stored) {
    const site = typeof entry === 'string' ? siteOf(entry) : undefined;
    if (site !== undefined && !sites.includes(site)) sites.push(site);
  }
  return sites;
}

export function matchPatternOf(site: string): string {
  return `${site}/*`;
}

/** One content script as the scripting API registers it (the fields both browsers read). */
export interface SiteScript {
  id: string;
  js: string[];
  matches: string[];
  runAt: 'document_start';
  allFrames: true;
  /** about:blank, srcdoc, data: and sandboxed frames of a matched page get it too (by their creator's origin). */
  matchOriginAsFallback: true;
  world: 'MAIN' | 'ISOLATED';
  persistAcrossSessions: true;
}

/**
 * The built tap (the page's own world, so it wraps the page's fetch and EventSource before any page script runs)
 * and bridge (an isolated world with the extension's messaging). manifest.json lists the same files for the build.
 */
export const TAP_SCRIPT = { id: 'mcp-tap', js: 'src/tap/index.js', world: 'MAIN' } as const;
export const BRIDGE_SCRIPT = { id: 'mcp-bridge', js: 'src/bridge/index.js', world: 'ISOLATED' } as const;

/** What should be registered: both scripts on every site, on the picked sites, or nothing when none is picked. */
export function siteScripts(recordOn: RecordOn, pickedSites: readonly string[]): SiteScript[] {
  const matches = recordOn === 'every-site' ? ['<all_urls>'] : pickedSites.map(matchPatternOf);
  if (matches.length === 0) return [];
  return [TAP_SCRIPT, BRIDGE_SCRIPT].map((script) => ({
    id: script.id,
    js: [script.js],
    matches,
    runAt: 'document_start',
    allFrames: true,
    matchOriginAsFallback: true,
    world: script.world,
    persistAcrossSessions: true,
  }));
}

/** Whether the page at `url` is recorded under this setting. */
export function recordsOn(recordOn: RecordOn, pickedSites: readonly string[], url: string): boolean {
  if (recordOn === 'every-site') return true;
  const site = siteOf(url);
  return site !== undefined && pickedSites.includes(site);
}

/** What a registration is compared by (what Chrome and Firefox give back of one), so an unchanged one stays. */
export interface RegisteredScript {
  id: string;
  js?: string[];
  matches?: string[];
  world?: string;
  runAt?: string;
  allFrames?: boolean;
  matchOriginAsFallback?: boolean;
}

/** The order of matches counts (it is the user's order); the order of scripts does not. */
const signature = (scripts: readonly RegisteredScript[]): string =>
  JSON.stringify(
    [...scripts]
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((s) => [
        s.id,
        s.js ?? [],
        s.matches ?? [],
        s.world ?? 'ISOLATED',
        s.runAt ?? 'document_idle',
        s.allFrames === true,
        s.matchOriginAsFallback === true,
      ]),
  );

/** Whether what the browser has registered is already what is wanted (then nothing is unregistered). */
export function sameRegistration(
  registered: readonly RegisteredScript[],
  wanted: readonly RegisteredScript[],
): boolean {
  return signature(registered) === signature(wanted);
}
