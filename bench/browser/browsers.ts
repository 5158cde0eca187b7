// Node (benches): a fresh Chromium per measurement, always through the project's launcher (loopback black-hole
// proxy, fresh profile), with or without the built extension, on the bench page; and the panel page for its tab.
import type { Page } from '@playwright/test';
import { launchChromium, type ChromiumSession } from '../../e2e/launcher';
import { findTabId, openExtensionPage, panelUrl } from '../../e2e/fixtures/extension';
import { PAGE_PATH, type BenchServer } from './server';

/**
 * The unpacked extension to load. bench/run.ts builds dist/chrome once and passes a private copy here, so a build
 * another session starts meanwhile cannot change the extension in the middle of a run.
 */
export function extensionDir(): string {
  return process.env.BENCH_EXTENSION_DIR ?? 'dist/chrome';
}

export interface BenchBrowser {
  session: ChromiumSession;
  /** The bench page, loaded from the bench server (so the tap, when loaded, is in it from document_start). */
  page: Page;
  withExtension: boolean;
  /** Closes the browser; throws if anything tried to leave loopback (a bench must not touch the network). */
  close(): Promise<void>;
}

export interface BenchOptions {
  /** A real DevTools window on every tab (--auto-open-devtools-for-tabs); the bench page is then the first tab. */
  devtools?: boolean;
  /** The fresh profile's Preferences (DevTools settings among them: see launchChromium). */
  preferences?: Record<string, unknown>;
}

export async function openBench(
  server: BenchServer,
  withExtension: boolean,
  options: BenchOptions = {},
): Promise<BenchBrowser> {
  const session = await launchChromium({
    ...(withExtension ? { extension: extensionDir() } : {}),
    ...(options.devtools ? { devtools: true } : {}),
    ...(options.preferences ? { preferences: options.preferences } : {}),
  });
  // With DevTools, the first tab (opened at launch, DevTools already on it) is the bench page: a second tab would
  // have a DevTools window of its own, working beside the one measured.
  const page = (options.devtools ? session.context.pages()[0] : undefined) ?? (await session.context.newPage());
  await page.goto(`${server.origin}${PAGE_PATH}`);
  return {
    session,
    page,
    withExtension,
    close: async () => {
      const report = await session.close();
      if (report.violations.length > 0) throw new Error(`network rule violated: ${report.violations.join('; ')}`);
    },
  };
}

let tabs = 0;

/**
 * Another tab on the bench page, in the same browser: a fresh page (and page heap) for the next measurement. Its
 * URL is unique (a query the server ignores), so findTabId can tell it from the others.
 */
export async function newBenchPage(bench: BenchBrowser, server: BenchServer): Promise<Page> {
  const page = await bench.session.context.newPage();
  await page.goto(`${server.origin}${PAGE_PATH}?tab=${++tabs}`);
  return page;
}

/**
 * Opens the panel page for the bench page's tab in a second tab and waits until it is attached: its status bar
 * names the page's URL, which the panel learns only from the background's answer to its attach. A panel that never
 * shows the URL is used anyway, with a warning: the background keeps the tab's records from page load, so nothing is
 * lost, and a panel that never attaches shows up as one that never catches up.
 */
export async function openPanel(bench: BenchBrowser, page: Page = bench.page): Promise<Page> {
  const id = bench.session.extensionId;
  if (!id) throw new Error('the panel needs the extension');
  const helper = await openExtensionPage(bench.session.context, id);
  const tabId = await findTabId(helper, page.url());
  await helper.close();
  const panel = await bench.session.context.newPage();
  await panel.goto(panelUrl(`chrome-extension://${id}/`, tabId));
  try {
    await panel.locator('[data-testid=status-bar]', { hasText: page.url() }).waitFor({ timeout: 10_000 });
  } catch {
    process.stderr.write(`warning: the panel's status bar never named ${page.url()}: attach not confirmed\n`);
  }
  return panel;
}
