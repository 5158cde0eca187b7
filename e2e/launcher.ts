// Node (tests, lab, npm start): the ONLY way the project starts a browser. Every browser goes through the loopback
// black-hole proxy, resolves no outside names, and gets a fresh profile; what it tried is reported at close().
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';
import puppeteer, { type Browser as PuppeteerBrowser } from 'puppeteer-core';
import {
  isBrowserInternalHost,
  isLoopbackHost,
  startBlackholeProxy,
  type BlackholeProxy,
  type ProxyAttempt,
} from './blackhole-proxy';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
/** The gecko id vite.config.ts gives the Firefox build (a mismatch fails every Firefox test: the uuid would not apply). */
const GECKO_ID = 'mcp-stream-inspector@example.org';
/** Fixed moz-extension:// host, so tests know the panel URL before installing. */
export const FIREFOX_EXTENSION_UUID = '6f1d3c52-4a0e-4c7b-9f39-2b8e5d1a7c40';

export interface NetworkReport {
  proxyAttempts: ProxyAttempt[];
  /** Requests that pages made to hosts other than loopback (Chromium: seen by Playwright; any browser: by the proxy). */
  violations: string[];
}

function report(proxy: BlackholeProxy, pageRequests: string[]): NetworkReport {
  const proxyAttempts = [...proxy.attempts];
  const unexpected = proxyAttempts
    .filter((a) => !isLoopbackHost(a.host) && !isBrowserInternalHost(a.host))
    .map((a) => `${a.method} ${a.url ?? a.host} (via proxy)`);
  return { proxyAttempts, violations: [...pageRequests, ...unexpected] };
}

function printReport(label: string, r: NetworkReport): void {
  if (r.proxyAttempts.length === 0 && r.violations.length === 0) return;
  const hosts = [...new Set(r.proxyAttempts.map((a) => `${a.method} ${a.host}`))];
  process.stdout.write(
    `[network rule] ${label}: ${r.proxyAttempts.length} attempt(s) refused by the black hole: ${hosts.join(', ')}\n`,
  );
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
}

export interface ChromiumSession {
  context: BrowserContext;
  /** chrome-extension://<id>/ host, when an extension was loaded. */
  extensionId?: string;
  proxy: BlackholeProxy;
  /** Closes the browser, stops the proxy, removes the profile; prints and returns what was tried. */
  close(): Promise<NetworkReport>;
}

export function chromiumArgs(proxyUrl: string, options: ChromiumOptions = {}): string[] {
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
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: options.headless ?? true,
      args: chromiumArgs(proxy.url, options),
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
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 10_000 }));
    extensionId = new URL(worker.url()).host;
  }
  return {
    context,
    ...(extensionId ? { extensionId } : {}),
    proxy,
    close: async () => {
      await context.close();
      await proxy.close();
      rmSync(profile, { recursive: true, force: true });
      const r = report(proxy, pageRequests);
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
  };
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
      extraPrefsFirefox: firefoxPrefs(proxy.port),
    });
  } catch (error) {
    await proxy.close();
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  if (options.extension) await browser.installExtension(resolve(options.extension));
  return {
    browser,
    ...(options.extension ? { extensionBase: `moz-extension://${FIREFOX_EXTENSION_UUID}/` } : {}),
    proxy,
    close: async () => {
      await browser.close();
      await proxy.close();
      rmSync(profile, { recursive: true, force: true });
      const r = report(proxy, []);
      printReport('firefox', r);
      return r;
    },
  };
}
