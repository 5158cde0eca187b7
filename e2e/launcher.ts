// Node (tests, lab, npm start): the ONLY way the project starts a browser. Every browser goes through the loopback
// black-hole proxy, resolves no outside names, and gets a fresh profile; what it tried is reported at close().
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';
import puppeteer, { type Browser as PuppeteerBrowser } from 'puppeteer-core';
import { openMozExtensionPage } from './fixtures/firefox';
import { isLoopbackHost, startBlackholeProxy, type BlackholeProxy, type ProxyAttempt } from './blackhole-proxy';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
/** The gecko id vite.config.ts gives the Firefox build (a mismatch fails every Firefox test: the uuid would not apply). */
const GECKO_ID = 'mcp-stream-inspector@example.org';
/** Fixed moz-extension:// host, so tests know the panel URL before installing. */
export const FIREFOX_EXTENSION_UUID = '6f1d3c52-4a0e-4c7b-9f39-2b8e5d1a7c40';

export interface NetworkReport {
  proxyAttempts: ProxyAttempt[];
  /** Every attempt to leave loopback (pages seen by Playwright; anything seen by the proxy) not named in KNOWN_ATTEMPTS. */
  violations: string[];
  /** Attempts the black hole refused that match a named, documented exception (see KNOWN_ATTEMPTS). */
  excused: string[];
}

/**
 * Attempts that no switch, feature or profile setting stops in the browser as shipped here; each is refused by the
 * black hole, logged by name at close(), and NOT a violation. Anything else the proxy sees is a violation. Keep this
 * list to what was shown by experiment to be unstoppable, and say why.
 */
interface KnownAttempt {
  method: string;
  /** host:port exactly as the proxy records it (a CONNECT shows no path). */
  host: string;
  name: string;
}
const KNOWN_ATTEMPTS: Record<'chromium' | 'firefox', KnownAttempt[]> = {
  chromium: [
    // GaiaCookieManagerService's ListAccounts (traffic annotation gaia_auth_list_accounts), fired at profile start on
    // the empty cookie jar and retried with backoff. Chromium 156 has no switch for it: tried and still seen were
    // --allow-browser-signin=false, --enable-features=AvoidAutoTriggerListAccountsOnStale, --disable-features=Btm,
    // --oauth2-client-id/secret=dummytoken, and starting /usr/lib/chromium/chromium without the Debian wrapper's API
    // keys. Playwright's --enable-features=SkipListAccountsWithoutGaiaCookies (its fix for this) is not in this build.
    { method: 'CONNECT', host: 'accounts.google.com:443', name: 'Gaia ListAccounts (no switch in Chromium 156)' },
  ],
  firefox: [],
};

function report(browser: 'chromium' | 'firefox', proxy: BlackholeProxy, pageRequests: string[]): NetworkReport {
  const proxyAttempts = [...proxy.attempts];
  const known = (a: ProxyAttempt) =>
    KNOWN_ATTEMPTS[browser].find((k) => k.method === a.method && k.host.toLowerCase() === a.host.toLowerCase());
  const excused: string[] = [];
  const unexpected: string[] = [];
  for (const a of proxyAttempts) {
    if (isLoopbackHost(a.host)) continue;
    const k = known(a);
    if (k) excused.push(`${a.method} ${a.host} (${k.name})`);
    else unexpected.push(`${a.method} ${a.url ?? a.host} (via proxy)`);
  }
  return { proxyAttempts, violations: [...pageRequests, ...unexpected], excused };
}

function printReport(label: string, r: NetworkReport): void {
  if (r.proxyAttempts.length === 0 && r.violations.length === 0) return;
  const hosts = [...new Set(r.proxyAttempts.map((a) => `${a.method} ${a.host}`))];
  process.stdout.write(
    `[network rule] ${label}: ${r.proxyAttempts.length} attempt(s) refused by the black hole: ${hosts.join(', ')}\n`,
  );
  const excused = [...new Set(r.excused)];
  if (excused.length > 0) {
    process.stdout.write(`[network rule] ${label}: known exception(s), not violations: ${excused.join(', ')}\n`);
  }
  for (const v of r.violations) process.stdout.write(`[network rule] VIOLATION ${label}: ${v}\n`);
}

function freshProfile(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `mcp-stream-inspector-${prefix}-`));
}

// ---------------------------------------------------------------- Chromium

export interface ChromiumOptions {
  /** Unpacked extension directory to load (e.g. 'dist/chrome'). */
  extension?: string;
  /** Open a real DevTools window for every tab (--auto-open-devtools-for-tabs). */
  devtools?: boolean;
  headless?: boolean;
  args?: string[];
  /**
   * Written as the fresh profile's `Default/Preferences` before launch, so the browser starts with them. DevTools keeps
   * its settings there under `devtools.preferences`, each value a JSON-encoded string (`'"network"'`, `'true'`).
   */
  preferences?: Record<string, unknown>;
}

export interface ChromiumSession {
  context: BrowserContext;
  /** chrome-extension://<id>/ host, when an extension was loaded. */
  extensionId?: string;
  proxy: BlackholeProxy;
  /** Closes the browser, stops the proxy, removes the profile; prints and returns what was tried. */
  close(): Promise<NetworkReport>;
}

/** Written into each fresh profile: an empty manifest-override config (see chromiumArgs). */
const MANIFEST_OVERRIDE_FILE = 'optimization-guide-manifest-override.json';

/** `profile` is the fresh user-data-dir; launchChromium writes MANIFEST_OVERRIDE_FILE into it before launch. */
// Do not add a --disable-features/--enable-features here without merging Playwright's own: Chromium keeps only the last
// one given (verified: a second --disable-features brought back clients2.google.com/time and optimizationguide-pa).
export function chromiumArgs(proxyUrl: string, profile: string, options: ChromiumOptions = {}): string[] {
  const args = [
    `--proxy-server=${proxyUrl}`,
    '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1, EXCLUDE localhost',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-domain-reliability',
    '--disable-client-side-phishing-detection',
    '--no-pings',
    // Stops POST update.googleapis.com/service/update2/json (CONNECT :443, then plain http): the on-demand component
    // update for the Optimization Guide model manifest (app ceofaddefefcbblgcgnibnonglccbfja), which
    // --disable-component-update does not cover. With an override config the manifest broker reads assets from the
    // file instead of the component updater; `{}` names none, so nothing is fetched.
    `--optimization-guide-manifest-override=${join(profile, MANIFEST_OVERRIDE_FILE)}`,
    // Google Cloud Messaging (CONNECT android.clients.google.com:443, its checkin), seen twice in a run of ten panel
    // benches on 2026-12-02 and never before: something in Chromium 156 starts GCM now and then, and neither
    // --disable-background-networking nor --disable-sync stops it. Its endpoints are switches: a closed loopback port.
    '--gcm-checkin-url=http://127.0.0.1:9/checkin',
    '--gcm-registration-url=http://127.0.0.1:9/register',
    '--gcm-mcs-endpoint=http://127.0.0.1:9/mcs',
    // Autofill's form-type queries (CONNECT content-autofill.googleapis.com:443, 8 a run of the store screenshots in
    // Chromium 150, whose panel pages have inputs): its server is a switch too.
    '--autofill-server-url=http://127.0.0.1:9/',
  ];
  if (options.extension) {
    const dir = resolve(options.extension);
    args.push(`--disable-extensions-except=${dir}`, `--load-extension=${dir}`);
  }
  if (options.devtools) args.push('--auto-open-devtools-for-tabs');
  return [...args, ...(options.args ?? [])];
}

export async function launchChromium(options: ChromiumOptions = {}): Promise<ChromiumSession> {
  const proxy = await startBlackholeProxy();
  const profile = freshProfile('chromium');
  const pageRequests: string[] = [];
  let context: BrowserContext;
  try {
    writeFileSync(join(profile, MANIFEST_OVERRIDE_FILE), '{}\n');
    if (options.preferences) {
      mkdirSync(join(profile, 'Default'));
      writeFileSync(join(profile, 'Default', 'Preferences'), JSON.stringify(options.preferences));
    }
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: options.headless ?? true,
      args: chromiumArgs(proxy.url, profile, options),
      // Playwright disables extensions by default; ours must load.
      ignoreDefaultArgs: ['--disable-extensions'],
      viewport: { width: 1280, height: 800 },
    });
  } catch (error) {
    await proxy.close();
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (
      (url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'ws:' || url.protocol === 'wss:') &&
      !isLoopbackHost(url.host)
    ) {
      pageRequests.push(`${request.method()} ${request.url()} (from a page)`);
    }
  });
  let extensionId: string | undefined;
  if (options.extension) {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 0 }));
    extensionId = new URL(worker.url()).host;
    // The tap and bridge are registered by the worker at its start (src/background/content-scripts.ts): a page
    // loaded before that would not be recorded, so no test loads one until it is done.
    await worker.evaluate(() => (globalThis as { scriptsReady?: Promise<void> }).scriptsReady);
  }
  return {
    context,
    ...(extensionId ? { extensionId } : {}),
    proxy,
    close: async () => {
      await context.close();
      await proxy.close();
      rmSync(profile, { recursive: true, force: true });
      const r = report('chromium', proxy, pageRequests);
      printReport('chromium', r);
      return r;
    },
  };
}

// ---------------------------------------------------------------- Firefox

export interface FirefoxOptions {
  /** Unpacked extension directory to install (e.g. 'dist/firefox'). */
  extension?: string;
  headless?: boolean;
  /**
   * Where downloads go, saved without asking. Prefs, not WebDriver BiDi's browser.setDownloadBehavior: Firefox ESR
   * 140 (what Debian ships) does not know that command.
   */
  downloadDir?: string;
}

/** Firefox saves every download straight into `dir`, asking nothing. */
function downloadPrefs(dir: string): Record<string, unknown> {
  return {
    'browser.download.dir': dir,
    'browser.download.folderList': 2,
    'browser.download.useDownloadDir': true,
    'browser.download.always_ask_before_handling_new_types': false,
    'browser.download.manager.showWhenStarting': false,
    'browser.helperApps.neverAsk.saveToDisk': 'application/json',
  };
}

export interface FirefoxSession {
  browser: PuppeteerBrowser;
  /** moz-extension://<uuid>/ when an extension was installed. */
  extensionBase?: string;
  proxy: BlackholeProxy;
  close(): Promise<NetworkReport>;
}

export function firefoxPrefs(proxyPort: number): Record<string, unknown> {
  return {
    'network.proxy.type': 1,
    'network.proxy.http': '127.0.0.1',
    'network.proxy.http_port': proxyPort,
    'network.proxy.ssl': '127.0.0.1',
    'network.proxy.ssl_port': proxyPort,
    'network.proxy.share_proxy_settings': false,
    'network.proxy.no_proxies_on': 'localhost, 127.0.0.1',
    'network.proxy.allow_hijacking_localhost': false,
    'network.trr.mode': 5,
    'network.dns.disablePrefetch': true,
    'network.prefetch-next': false,
    'network.captive-portal-service.enabled': false,
    'network.connectivity-service.enabled': false,
    'browser.safebrowsing.update.enabled': false,
    'app.update.enabled': false,
    'datareporting.healthreport.uploadEnabled': false,
    'toolkit.telemetry.enabled': false,
    'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: FIREFOX_EXTENSION_UUID }),
    // Tests open the panel in a tab of its own, so the inspected page is a background tab (in DevTools it is the
    // visible one): Firefox would hold its timers to 1 s, and an MCP client's reconnect after `retry: 150` came a
    // second later. Chromium's launch does not throttle either.
    'dom.min_background_timeout_value': 4,
    'dom.min_background_timeout_value_without_budget_throttling': 4,
    'dom.timeout.enable_budget_timer_throttling': false,
  };
}

/**
 * Waits until the installed extension's event page has registered the tap and bridge (src/background/
 * content-scripts.ts), read from one of its own pages: before that, a page load would not be recorded.
 */
async function firefoxScriptsRegistered(browser: PuppeteerBrowser): Promise<void> {
  const page = await browser.newPage();
  try {
    await openMozExtensionPage(page, `moz-extension://${FIREFOX_EXTENSION_UUID}/src/panel/devtools.html`);
    const registered = await page.evaluate(async () => {
      type Api = { scripting: { getRegisteredContentScripts(): Promise<unknown[]> } };
      const api = (globalThis as unknown as { browser: Api }).browser;
      for (let attempt = 0; attempt < 200; attempt++) {
        if ((await api.scripting.getRegisteredContentScripts()).length >= 2) return true;
        await new Promise((done) => setTimeout(done, 25));
      }
      return false;
    });
    if (!registered) throw new Error('the extension registered no tap and bridge within 5 s');
  } finally {
    await page.close();
  }
}

export async function launchFirefox(options: FirefoxOptions = {}): Promise<FirefoxSession> {
  const proxy = await startBlackholeProxy();
  const profile = freshProfile('firefox');
  let browser: PuppeteerBrowser;
  try {
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX_PATH,
      headless: options.headless ?? true,
      userDataDir: profile,
      args: ['--remote-allow-system-access'],
      env: { ...process.env, MOZ_REMOTE_SETTINGS_DEVTOOLS: '1' },
      extraPrefsFirefox: {
        ...firefoxPrefs(proxy.port),
        ...(options.downloadDir ? downloadPrefs(options.downloadDir) : {}),
      },
    });
  } catch (error) {
    await proxy.close();
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  if (options.extension) {
    await browser.installExtension(resolve(options.extension));
    await firefoxScriptsRegistered(browser);
  }
  return {
    browser,
    ...(options.extension ? { extensionBase: `moz-extension://${FIREFOX_EXTENSION_UUID}/` } : {}),
    proxy,
    close: async () => {
      await browser.close();
      await proxy.close();
      rmSync(profile, { recursive: true, force: true });
      const r = report('firefox', proxy, []);
      printReport('firefox', r);
      return r;
    },
  };
}
