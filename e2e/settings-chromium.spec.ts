// Node (Playwright): the panel's settings gear in Chromium with the built extension: credentials are redacted
// until the user opts in from the panel, and the next page load records them as sent.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { parseCapture } from '../src/core/index';
import { redactHeaderValue } from '../src/core/capture/redact/headers';
import { DIST_CHROME, findTabId, header, openExtensionPage, panelUrl } from './fixtures/extension';
import { startFixtureServer, type FixtureServer } from './fixtures/sse-server';
import { launchChromium, type ChromiumSession } from './launcher';

const TOKEN = 'Bearer s3cret-token';
const PAGE_PATH = '/auth-stream.html';
/** Initializes an MCP session with an Authorization header as soon as it loads; `load=N` tells the loads apart. */
const AUTH_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>auth fixture</title>
<script>
const load = Number(sessionStorage.getItem('load') ?? '0') + 1;
sessionStorage.setItem('load', String(load));
window.__done = fetch('/mcp?load=' + load, {
  method: 'POST',
  headers: { authorization: ${JSON.stringify(TOKEN)}, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'auth-fixture', version: '1' } } }),
}).then((res) => res.text());
</script></head><body><h1>auth fixture</h1></body></html>`;

let server: FixtureServer;
let session: ChromiumSession;

test.beforeAll(async () => {
  server = await startFixtureServer();
  session = await launchChromium({ extension: DIST_CHROME });
  // The page comes from this spec's markup but the fixture server's origin, so its /mcp needs no CORS.
  await session.context.route(`${server.url}${PAGE_PATH}`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: AUTH_PAGE }),
  );
});

test.afterAll(async () => {
  const report = await session.close();
  await server.close();
  expect(report.violations).toEqual([]);
});

async function openPanel(tabId: number, theme: 'light' | 'dark' = 'light'): Promise<Page> {
  const panel = await session.context.newPage();
  await panel.setViewportSize({ width: 1100, height: 520 });
  await panel.goto(`${panelUrl(`chrome-extension://${session.extensionId}/`, tabId)}&theme=${theme}`);
  return panel;
}

/** What the extension keeps in storage.local, read from an extension page. */
function stored(extensionPage: Page): Promise<Record<string, unknown>> {
  return extensionPage.evaluate(() =>
    (globalThis as unknown as { chrome: typeof chrome }).chrome.storage.local.get(null),
  );
}

/** Selects the MCP connection (through its first event): its request line and the Authorization its Headers tab shows. */
async function shownConnection(panel: Page): Promise<{ request: string; authorization: string }> {
  await panel.locator('[data-testid=event-row]').first().click();
  await panel.locator('.detail-head button.link').first().click();
  await panel.getByRole('tab', { name: 'Headers' }).click();
  const text = async (selector: string) => (await panel.locator(selector).first().textContent()) ?? '';
  return {
    request: await text('.detail-head .kv dd'),
    authorization: await text('.kv.headers dt:text-is("authorization") + dd'),
  };
}

test('the settings gear opts in to recording credentials; the next page load records them as sent', async () => {
  const page = await session.context.newPage();
  await page.goto(`${server.url}${PAGE_PATH}`);
  expect(await page.evaluate(() => (window as unknown as { __done: Promise<string> }).__done)).toContain('id: init-1');
  const helper = await openExtensionPage(session.context, session.extensionId!);
  const tabId = await findTabId(helper, page.url());
  // Not attached to a tab (import only): nothing to configure, no gear.
  await expect(helper.locator('[data-testid=export-capture]')).toBeVisible();
  await expect(helper.locator('[data-testid=settings]')).toHaveCount(0);
  await helper.close();

  const panel = await openPanel(tabId);
  await expect(panel.locator('[data-testid=event-row]')).toHaveCount(1);
  expect(await shownConnection(panel)).toEqual({
    request: expect.stringContaining('load=1'),
    authorization: redactHeaderValue('authorization', TOKEN),
  });

  // Keyboard: the gear is reachable and opens its popover; Escape closes it and gives focus back.
  const gear = panel.getByRole('button', { name: 'Settings' });
  await expect(gear).toHaveAttribute('data-testid', 'settings');
  await gear.focus();
  await panel.keyboard.press('Enter');
  const popover = panel.getByRole('dialog', { name: 'Settings' });
  await expect(popover).toBeVisible();
  const reveal = popover.locator('[data-testid=reveal-secrets]');
  const buffer = popover.getByLabel('Buffer before DevTools opens');
  await expect(reveal).not.toBeChecked();
  await expect(buffer).toHaveValue('4');
  await panel.keyboard.press('Escape');
  await expect(popover).toBeHidden();
  await expect(gear).toBeFocused();

  await gear.click();
  await reveal.check();
  await buffer.fill('100');
  await buffer.press('Enter');
  // Out of range is clamped to the 64 MiB maximum, and both changes are in storage at once.
  await expect(buffer).toHaveValue('64');
  await expect(popover.getByRole('status')).toContainText(/saved.*applies to new requests/i);
  expect(await stored(panel)).toMatchObject({
    'settings.revealSecrets': true,
    'settings.bufferBytes': 64 * 1024 * 1024,
  });
  await expect(gear).toHaveClass(/secrets-on/);
  await panel.screenshot({ path: 'test-results/settings-chromium.png' });
  await buffer.fill('8');
  await buffer.press('Tab');
  await expect.poll(async () => (await stored(panel))['settings.bufferBytes']).toBe(8 * 1024 * 1024);

  const dark = await openPanel(tabId, 'dark');
  await dark.locator('[data-testid=settings]').click();
  await expect(dark.locator('[data-testid=reveal-secrets]')).toBeChecked();
  await expect(dark.getByLabel('Buffer before DevTools opens')).toHaveValue('8');
  await dark.screenshot({ path: 'test-results/settings-chromium-dark.png' });
  await dark.close();

  await page.reload();
  await page.evaluate(() => (window as unknown as { __done: Promise<string> }).__done);
  // Without preserve log the reload starts over: the panel shows the new load's connection alone.
  await expect.poll(async () => (await shownConnection(panel)).request).toContain('load=2');
  await expect(panel.locator('[data-testid=event-row]')).toHaveCount(1);
  expect((await shownConnection(panel)).authorization).toBe(TOKEN);

  const [download] = await Promise.all([
    panel.waitForEvent('download'),
    panel.locator('[data-testid=export-capture]').click(),
  ]);
  const file = test.info().outputPath('with-secrets.capture.json');
  await download.saveAs(file);
  const connections = parseCapture(readFileSync(file, 'utf8')).connections;
  expect(connections.map((c) => c.url)).toEqual([`${server.url}/mcp?load=2`]);
  expect(header(connections[0]!.requestHeaders, 'authorization')).toBe(TOKEN);
  await Promise.all([panel.close(), page.close()]);
});
