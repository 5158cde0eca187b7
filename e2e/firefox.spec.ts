// Node (Playwright runner, puppeteer-core over WebDriver BiDi): the built extension in Firefox ESR.
import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import { bulkDigest } from './fixtures/bulk-stream';
import { readWhole } from './fixtures/read-whole';
import { DIST_FIREFOX, findTabId, panelUrl } from './fixtures/extension';
import { openMozExtensionPage, sizeViewport } from './fixtures/firefox';
import { SESSION_ID, startFixtureServer, type FixtureServer } from './fixtures/sse-server';
import { launchFirefox, type FirefoxSession } from './launcher';

let server: FixtureServer;
let firefox: FirefoxSession;

test.beforeAll(async () => {
  server = await startFixtureServer();
  firefox = await launchFirefox({ extension: DIST_FIREFOX });
});

test.afterAll(async () => {
  const report = await firefox?.close();
  await server.close();
  expect(report?.violations ?? []).toEqual([]);
});

async function openExtensionPage(url: string): Promise<Page> {
  const page = await firefox.browser.newPage();
  await openMozExtensionPage(page, url);
  return page;
}

async function tabIdOf(url: string): Promise<number> {
  const helper = await openExtensionPage(panelUrl(firefox.extensionBase!, -1));
  const tabId = await findTabId(helper, url);
  await helper.close();
  return tabId;
}

const count = (page: Page, selector: string): Promise<number> =>
  page.evaluate((s) => document.querySelectorAll(s).length, selector);

// What AMO's reviewers read: no error, and no warning or notice either (issue 32; `npm run check:store` says the same).
test('web-ext lint reports no errors, warnings or notices for the Firefox build', () => {
  const out = execFileSync(
    'npx',
    ['web-ext', 'lint', '--source-dir', DIST_FIREFOX, '--output', 'json', '--no-config-discovery'],
    {
      encoding: 'utf8',
    },
  );
  type Messages = { code: string; message: string }[];
  const result = JSON.parse(out.slice(out.indexOf('{'))) as {
    errors: Messages;
    warnings: Messages;
    notices: Messages;
    summary: { errors: number; warnings: number; notices: number };
  };
  expect(result.errors).toEqual([]);
  expect(result.warnings).toEqual([]);
  expect(result.notices).toEqual([]);
  expect(result.summary).toEqual({ errors: 0, warnings: 0, notices: 0 });
});

test('Firefox: the tap records the stream and the panel page shows it', async () => {
  const page = await firefox.browser.newPage();
  await page.goto(`${server.url}/mcp-client.html`);
  const log = await page.evaluate(() => (window as unknown as { __done: Promise<string[]> }).__done);
  expect(log).toContain('resume call-5');
  const tabId = await tabIdOf(page.url());

  const panel = await openExtensionPage(panelUrl(firefox.extensionBase!, tabId));
  await expect.poll(() => count(panel, '[data-testid=event-row]')).toBe(6);
  await expect.poll(() => count(panel, '[data-testid=finding][data-rule="torn-event-reconnect"]')).toBe(1);
  const sessionText = await panel.evaluate(
    () => document.querySelector('[data-testid=session-row]')?.textContent ?? '',
  );
  expect(sessionText).toContain(SESSION_ID.slice(0, 6));
  expect(sessionText).toContain('2025-11-25');
  // The timeline draws its links once it knows its size (a later render than the rows): wait for it, do not sample.
  await expect.poll(() => count(panel, '[data-testid=reconnect-link][data-last-event-id="call-3"]')).toBe(1);
  await sizeViewport(panel, 1280, 800);
  await panel.screenshot({ path: 'test-results/panel-firefox.png' });
  await panel.close();
  await page.close();
});

test('Firefox: EventSource is recorded with its reconnect', async () => {
  const page = await firefox.browser.newPage();
  await page.goto(`${server.url}/eventsource.html`);
  await page.evaluate(() => (window as unknown as { __done: Promise<string[]> }).__done);
  const panel = await openExtensionPage(panelUrl(firefox.extensionBase!, await tabIdOf(page.url())));
  // Three events on the first connection, two on the reconnect before the page closes it.
  await expect.poll(() => count(panel, '[data-testid=event-row]')).toBe(5);
  await panel.close();
  await page.close();
});

test('Firefox: under load, 64 MB arrive byte for byte as the server sent them while the panel watches', async () => {
  const n = 16;
  const size = 4 * 1024 * 1024;
  const page = await firefox.browser.newPage();
  await page.goto(`${server.url}/blank.html`);
  const panel = await openExtensionPage(panelUrl(firefox.extensionBase!, await tabIdOf(page.url())));
  await expect.poll(() => panel.evaluate(() => document.querySelector('.status-bar') !== null)).toBe(true);
  const read = await page.evaluate(readWhole, `/bulk?n=${n}&size=${size}`);
  expect(read).toEqual({ ...bulkDigest(n, size), status: 200 });
  // Every event reached the panel: the bytes crossed tap -> bridge -> background -> panel as structured clones.
  await expect.poll(() => count(panel, '[data-testid=event-row]')).toBe(n);
  await panel.close();
  await page.close();
});
