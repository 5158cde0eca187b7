// Node (Playwright runner; Firefox through puppeteer-core over WebDriver BiDi): the settings' "Record on" in both
// browsers with the built extension. Only the sites the user picks are recorded: with none picked a reload records
// nothing and the panel says so, one click on its notice picks the page's site, another host of the same server
// (localhost) stays unrecorded, and "Every site" brings it back. The tab keeps preserve log on, so every recorded
// load stays listed: the events table tells which loads were recorded (one initialize event each).
import { expect, test } from '@playwright/test';
import { DIST_CHROME, DIST_FIREFOX, findTabId, openExtensionPage, panelUrl } from './fixtures/extension';
import { openMozExtensionPage, sizeViewport } from './fixtures/firefox';
import { startFixtureServer, type FixtureServer } from './fixtures/sse-server';
import { launchChromium, launchFirefox } from './launcher';

/** What the flow does with a page, in either driver. */
interface Tab {
  goto(url: string): Promise<void>;
  /** Waits for the initialize fixture's fetch to finish (recorded or not, the page made it). */
  done(): Promise<string>;
  count(selector: string): Promise<number>;
  text(selector: string): Promise<string>;
  click(selector: string): Promise<void>;
  screenshot(path: string): Promise<void>;
}

const asText = (selector: string): string => document.querySelector(selector)?.textContent ?? '';
const asCount = (selector: string): number => document.querySelectorAll(selector).length;
const fixtureDone = (): Promise<string> => (window as unknown as { __done: Promise<string> }).__done;

/** What both drivers' Page offers that the flow needs (Playwright's and puppeteer's Page both are one). */
interface DrivenPage {
  goto(url: string): Promise<unknown>;
  click(selector: string): Promise<void>;
  screenshot(options: { path: string }): Promise<unknown>;
  evaluate(fn: (selector: string) => number, selector: string): Promise<number>;
  evaluate(fn: (selector: string) => string, selector: string): Promise<string>;
  evaluate(fn: () => Promise<string>): Promise<string>;
}

function tabOf(page: DrivenPage): Tab {
  return {
    goto: async (url) => void (await page.goto(url)),
    done: () => page.evaluate(fixtureDone),
    count: (selector) => page.evaluate(asCount, selector),
    text: (selector) => page.evaluate(asText, selector),
    click: (selector) => page.click(selector),
    screenshot: async (path) => void (await page.screenshot({ path })),
  };
}

/** The tap and bridge registrations as an extension page reads them: each one's matches. */
function registeredMatches(): Promise<string[][]> {
  type Api = { scripting: { getRegisteredContentScripts(): Promise<{ id: string; matches?: string[] }[]> } };
  const scope = globalThis as unknown as { browser?: Api; chrome?: Api };
  const api = (scope.browser ?? scope.chrome) as Api;
  return api.scripting.getRegisteredContentScripts().then((scripts) => scripts.map((s) => s.matches ?? []));
}

const EVENT_ROW = '[data-testid=event-row]';
const NOTICE = '[data-testid=notice-site-not-recorded]';

async function recordOnFlow(
  browserName: string,
  server: FixtureServer,
  page: Tab,
  panel: Tab,
  registered: () => Promise<string[][]>,
): Promise<void> {
  const site = 'http://127.0.0.1';
  const other = server.url.replace('127.0.0.1', 'localhost');
  await expect.poll(() => panel.count(EVENT_ROW)).toBe(1);
  await panel.click('[data-testid=preserve-log]');

  await panel.click('[data-testid=settings]');
  await panel.click('[data-testid=record-picked-sites]');
  // Nothing picked yet: nothing is registered, and the panel says this page's site is not recorded.
  await expect.poll(registered).toEqual([]);
  await expect.poll(() => panel.text(NOTICE)).toContain(`${site} is not a site you picked`);
  await panel.screenshot(`test-results/record-on-${browserName}-none-picked.png`);
  await panel.click('[data-testid=settings]');

  await page.goto(`${server.url}/initialize.html?n=2`);
  expect(await page.done()).toContain('init-1');
  await panel.click('[data-testid=record-this-site]');
  await expect.poll(registered).toEqual([[`${site}/*`], [`${site}/*`]]);
  await expect.poll(() => panel.count(NOTICE)).toBe(0);

  await page.goto(`${server.url}/initialize.html?n=3`);
  await page.done();
  // The load made while no site was picked never arrives: the load after the pick does, and is the second row.
  await expect.poll(() => panel.count(EVENT_ROW)).toBe(2);

  await page.goto(`${other}/initialize.html?n=4`);
  await page.done();
  await page.goto(`${server.url}/initialize.html?n=5`);
  await page.done();
  // localhost is another site: its load is not recorded; back on 127.0.0.1 the next one is.
  await expect.poll(() => panel.count(EVENT_ROW)).toBe(3);
  await panel.click('[data-testid=settings]');
  await expect.poll(() => panel.text('[data-testid=picked-sites]')).toContain(site);
  await panel.screenshot(`test-results/record-on-${browserName}-picked.png`);

  await panel.click('[data-testid=record-every-site]');
  await panel.click('[data-testid=settings]');
  await expect.poll(registered).toEqual([['<all_urls>'], ['<all_urls>']]);
  await page.goto(`${other}/initialize.html?n=6`);
  await page.done();
  await expect.poll(() => panel.count(EVENT_ROW)).toBe(4);
}

let server: FixtureServer;

test.beforeAll(async () => {
  server = await startFixtureServer();
});

test.afterAll(async () => {
  await server.close();
});

test('Chromium: "Record on" only the sites I pick keeps the tap off every other site', async () => {
  const session = await launchChromium({ extension: DIST_CHROME });
  try {
    const page = await session.context.newPage();
    await page.goto(`${server.url}/initialize.html?n=1`);
    await page.evaluate(fixtureDone);
    const helper = await openExtensionPage(session.context, session.extensionId!);
    const tabId = await findTabId(helper, page.url());
    await helper.close();
    const panel = await session.context.newPage();
    await panel.setViewportSize({ width: 1100, height: 560 });
    await panel.goto(panelUrl(`chrome-extension://${session.extensionId}/`, tabId));
    await recordOnFlow('chromium', server, tabOf(page), tabOf(panel), () => panel.evaluate(registeredMatches));
  } finally {
    const report = await session.close();
    expect(report.violations).toEqual([]);
  }
});

test('Firefox: "Record on" only the sites I pick keeps the tap off every other site', async () => {
  const firefox = await launchFirefox({ extension: DIST_FIREFOX });
  try {
    const page = await firefox.browser.newPage();
    await page.goto(`${server.url}/initialize.html?n=1`);
    await page.evaluate(fixtureDone);
    const helper = await firefox.browser.newPage();
    await openMozExtensionPage(helper, panelUrl(firefox.extensionBase!, -1));
    const tabId = await findTabId(helper, page.url());
    await helper.close();
    const panel = await firefox.browser.newPage();
    await sizeViewport(panel, 1100, 560);
    await openMozExtensionPage(panel, panelUrl(firefox.extensionBase!, tabId));
    await recordOnFlow('firefox', server, tabOf(page), tabOf(panel), () => panel.evaluate(registeredMatches));
  } finally {
    const report = await firefox.close();
    expect(report.violations).toEqual([]);
  }
});
