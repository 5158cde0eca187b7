// Node (Playwright runner; Chromium through Playwright, Firefox ESR through puppeteer-core): MCP fetches from a data:
// iframe and a sandboxed srcdoc iframe (opaque origins) and a blob: iframe, reached only through
// match_origin_as_fallback, are recorded and shown in the panel, as sessions of their own.
import { expect, test } from '@playwright/test';
import { DIST_CHROME, DIST_FIREFOX, findTabId, openExtensionPage, panelUrl } from './fixtures/extension';
import { openMozExtensionPage } from './fixtures/firefox';
import { ODD_FRAMES, sessionOf, startOddFramesServer, type OddFramesServer } from './fixtures/odd-frames';
import { launchChromium, launchFirefox } from './launcher';

let server: OddFramesServer;

test.beforeAll(async () => {
  server = await startOddFramesServer();
});

test.afterAll(async () => {
  await server.close();
});

const sessionIds = (): string[] =>
  Array.from(document.querySelectorAll('[data-testid=session-row]'), (el) => el.getAttribute('data-session-id') ?? '');

const WANTED = ODD_FRAMES.map(sessionOf).sort();
const DONE = Object.fromEntries(ODD_FRAMES.map((f) => [f, true]));

test('Chromium: MCP fetches from a data:, a blob: and a sandboxed srcdoc iframe are recorded in the panel', async () => {
  const session = await launchChromium({ extension: DIST_CHROME });
  try {
    const page = await session.context.newPage();
    await page.goto(server.url);
    expect(await page.evaluate(() => (window as unknown as { __done: Promise<unknown> }).__done)).toEqual(DONE);
    const helper = await openExtensionPage(session.context, session.extensionId!);
    const tabId = await findTabId(helper, page.url());
    const panel = await session.context.newPage();
    await panel.goto(panelUrl(`chrome-extension://${session.extensionId}/`, tabId));
    await expect.poll(async () => (await panel.evaluate(sessionIds)).sort()).toEqual(WANTED);
  } finally {
    expect((await session.close()).violations).toEqual([]);
  }
});

test('Firefox: MCP fetches from a data:, a blob: and a sandboxed srcdoc iframe are recorded in the panel', async () => {
  const firefox = await launchFirefox({ extension: DIST_FIREFOX });
  try {
    const page = await firefox.browser.newPage();
    await page.goto(server.url);
    expect(await page.evaluate(() => (window as unknown as { __done: Promise<unknown> }).__done)).toEqual(DONE);
    const helper = await firefox.browser.newPage();
    await openMozExtensionPage(helper, panelUrl(firefox.extensionBase!, -1));
    const tabId = await findTabId(helper, page.url());
    const panel = await firefox.browser.newPage();
    await openMozExtensionPage(panel, panelUrl(firefox.extensionBase!, tabId));
    await expect.poll(async () => (await panel.evaluate(sessionIds)).sort()).toEqual(WANTED);
  } finally {
    expect((await firefox.close()).violations).toEqual([]);
  }
});
