// Node (Playwright runner): a page whose MCP traffic comes only from a dedicated and a shared worker, inspected in the
// real DevTools of Chromium (headless, --auto-open-devtools-for-tabs) and Firefox ESR (the toolbox over BiDi). The
// tap cannot see workers; the panel, inside DevTools, says how many MCP requests of DevTools' network log it did not
// record. What each browser's log holds is pinned here: a dedicated worker's fetch (both); a shared worker's never
// reaches the page's network log (it is a target of its own), so the panel cannot tell of it.
import { expect, test } from '@playwright/test';
import { DIST_CHROME, DIST_FIREFOX } from './fixtures/extension';
import { startOddFramesServer, type OddFramesServer } from './fixtures/odd-frames';
import type { PanelView } from './fixtures/panel-view';
import { openChromiumToolbox } from './fixtures/toolbox-chromium';
import { openFirefoxToolbox, toolboxUndrivable } from './fixtures/toolbox-firefox';
import { launchChromium, launchFirefox } from './launcher';

let server: OddFramesServer;

test.beforeAll(async () => {
  server = await startOddFramesServer();
});

test.afterAll(async () => {
  await server.close();
});

const DONE = { 'dedicated-worker': true, 'shared-worker': true };
const unrecorded = (view: PanelView): string =>
  view.notices.find((n) => n.testid === 'notice-unrecorded')?.text ?? '(no notice)';

test('Chromium DevTools: the panel says a worker made an MCP request it did not record', async () => {
  const session = await launchChromium({ extension: DIST_CHROME, devtools: true });
  try {
    const page = session.context.pages()[0] ?? (await session.context.newPage());
    await page.goto(server.workersUrl);
    const toolbox = await openChromiumToolbox(session, server.workersUrl, 'MCP Streams');
    try {
      expect(await page.evaluate(() => (window as unknown as { __done: Promise<unknown> }).__done)).toEqual(DONE);
      // Chromium's network log of the first load is empty (it records from when DevTools attached): a reload runs
      // the workers again under it.
      await page.reload();
      expect(await page.evaluate(() => (window as unknown as { __done: Promise<unknown> }).__done)).toEqual(DONE);
      await expect.poll(async () => unrecorded(await toolbox.read())).toMatch(/^1 MCP request .* worker/);
      const view = await toolbox.read();
      expect(view.sessions).toEqual([]);
    } finally {
      await toolbox.detach();
    }
  } finally {
    expect((await session.close()).violations).toEqual([]);
  }
});

test('Firefox toolbox: the panel says a worker made an MCP request it did not record', async () => {
  const firefox = await launchFirefox({ extension: DIST_FIREFOX });
  const undrivable = await toolboxUndrivable(firefox.browser);
  if (undrivable) expect((await firefox.close()).violations).toEqual([]);
  test.skip(undrivable !== undefined, undrivable);
  try {
    const page = await firefox.browser.newPage();
    await page.goto(server.workersUrl);
    expect(await page.evaluate(() => (window as unknown as { __done: Promise<unknown> }).__done)).toEqual(DONE);
    const toolbox = await openFirefoxToolbox(firefox.browser, server.workersUrl, 'MCP Streams');
    // The toolbox opened after the load: its log starts empty; a reload runs the workers again under it.
    await page.reload();
    expect(await page.evaluate(() => (window as unknown as { __done: Promise<unknown> }).__done)).toEqual(DONE);
    await expect.poll(async () => unrecorded(await toolbox.read())).toMatch(/^1 MCP request .* worker/);
    expect((await toolbox.read()).sessions).toEqual([]);
  } finally {
    expect((await firefox.close()).violations).toEqual([]);
  }
});
