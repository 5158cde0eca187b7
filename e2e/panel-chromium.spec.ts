// Node (Playwright): the "MCP Streams" panel in Chromium with the built extension, as a plain extension page
// attached to a tab and inside a real DevTools window.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { analyze, parseCapture } from '../src/core/index';
import { DIST_CHROME, findTabId, openExtensionPage, panelUrl, stopServiceWorker } from './fixtures/extension';
import { OPENAI_CHUNKS, SESSION_ID, startFixtureServer, type FixtureServer } from './fixtures/sse-server';
import { openChromiumToolbox } from './fixtures/toolbox-chromium';
import { launchChromium, type ChromiumSession } from './launcher';

let server: FixtureServer;
let session: ChromiumSession;
let extensionBase: string;

test.beforeAll(async () => {
  server = await startFixtureServer();
  session = await launchChromium({ extension: DIST_CHROME });
  extensionBase = `chrome-extension://${session.extensionId}/`;
});

test.afterAll(async () => {
  const report = await session.close();
  await server.close();
  expect(report.violations).toEqual([]);
});

async function openPage(path: string): Promise<Page> {
  const page = await session.context.newPage();
  await page.goto(`${server.url}${path}`);
  return page;
}

async function openPanelFor(page: Page): Promise<Page> {
  const helper = await openExtensionPage(session.context, session.extensionId!);
  const tabId = await findTabId(helper, page.url());
  await helper.close();
  const panel = await session.context.newPage();
  await panel.goto(panelUrl(extensionBase, tabId));
  return panel;
}

async function waitForClient(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { __done: Promise<unknown> }).__done);
}

async function renderedRules(panel: Page): Promise<string[]> {
  return [
    ...new Set(
      await panel
        .locator('[data-testid=finding]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-rule') ?? '')),
    ),
  ].sort();
}

test('the panel page shows the session, events, the reconnect link and torn-event-reconnect; export analyzes the same', async () => {
  const page = await openPage('/mcp-client.html');
  await waitForClient(page);
  const panel = await openPanelFor(page);

  const sessionRow = panel.locator('[data-testid=session-row]').filter({ hasText: SESSION_ID.slice(0, 6) });
  await expect(sessionRow).toHaveCount(1);
  await expect(sessionRow).toContainText('2025-11-25');
  await expect(panel.locator('[data-testid=event-row]')).toHaveCount(6);
  await expect(panel.locator('[data-testid=timeline]')).toBeVisible();
  await expect(panel.locator('[data-testid=reconnect-link]')).toHaveAttribute('data-last-event-id', 'call-3');
  await expect(panel.locator('[data-testid=finding][data-rule="torn-event-reconnect"]')).toHaveCount(1);
  await panel.screenshot({ path: 'test-results/panel-chromium.png' });

  const [download] = await Promise.all([
    panel.waitForEvent('download'),
    panel.locator('[data-testid=export-capture]').click(),
  ]);
  const file = test.info().outputPath('export.capture.json');
  await download.saveAs(file);
  const capture = parseCapture(readFileSync(file, 'utf8'));
  expect(capture.connections.filter((c) => c.url.endsWith('/mcp'))).toHaveLength(4);
  const coreRules = [...new Set(analyze(capture).findings.map((f) => f.rule))].sort();
  expect(coreRules).toContain('torn-event-reconnect');
  expect(coreRules).toEqual(await renderedRules(panel));
  // The CLI, run on the exported file, reports the same rules.
  const cli = execFileSync('npx', ['tsx', 'src/cli/main.ts', 'analyze', file, '--json', '--fail-on', 'never'], {
    encoding: 'utf8',
  });
  const cliRules = [
    ...new Set((JSON.parse(cli) as { findings: { rule: string }[] }).findings.map((f) => f.rule)),
  ].sort();
  expect(cliRules).toEqual(coreRules);

  const [har] = await Promise.all([panel.waitForEvent('download'), panel.locator('[data-testid=export-har]').click()]);
  const harFile = test.info().outputPath('export.har');
  await har.saveAs(harFile);
  expect(
    (JSON.parse(readFileSync(harFile, 'utf8')) as { log: { entries: unknown[] } }).log.entries.length,
  ).toBeGreaterThanOrEqual(4);
  await Promise.all([panel.close(), page.close()]);
});

test('with the panel open, stopping the service worker mid-stream loses nothing', async () => {
  const page = await openPage('/blank.html');
  const panel = await openPanelFor(page);
  await expect(panel.locator('[data-testid=empty-state]')).toBeVisible();
  const reading = page.evaluate(async () => {
    const res = await fetch('/sse?n=12&gap=0&size=40&hold=panel-sw&holdAfter=4', {
      headers: { 'mcp-protocol-version': '2025-11-25' },
    });
    return res.text();
  });
  // The server holds the stream after event 4: the worker stops mid-stream by construction, not by timing.
  await expect(panel.locator('[data-testid=event-row]')).toHaveCount(4);
  await stopServiceWorker(session.context, session.extensionId!);
  server.release('panel-sw');
  const pageSaw = await reading;
  await expect(panel.locator('[data-testid=event-row]')).toHaveCount(12);
  const [download] = await Promise.all([
    panel.waitForEvent('download'),
    panel.locator('[data-testid=export-capture]').click(),
  ]);
  const file = test.info().outputPath('after-restart.capture.json');
  await download.saveAs(file);
  const [stream] = parseCapture(readFileSync(file, 'utf8')).connections.filter((c) => c.url.includes('/sse'));
  expect(stream?.end).toBe('complete');
  expect(Buffer.concat((stream?.chunks ?? []).map((c) => c.bytes)).toString('utf8')).toBe(pageSaw);
  await Promise.all([panel.close(), page.close()]);
});

test('clear empties the panel; without preserve log a navigation starts over, with it old sessions stay', async () => {
  const page = await openPage('/blank.html');
  const panel = await openPanelFor(page);
  await expect(panel.locator('[data-testid=empty-state]')).toBeVisible();
  await page.goto(`${server.url}/mcp-client.html`);
  await waitForClient(page);
  await expect(panel.locator('[data-testid=session-row]')).toHaveCount(1);
  await panel.locator('[data-testid=clear]').click();
  await expect(panel.locator('[data-testid=empty-state]')).toBeVisible();

  await page.reload();
  await waitForClient(page);
  await expect(panel.locator('[data-testid=event-row]')).toHaveCount(6);
  await page.goto(`${server.url}/blank.html`);
  await expect(panel.locator('[data-testid=empty-state]')).toBeVisible();

  await panel.locator('[data-testid=preserve-log]').check();
  await page.goto(`${server.url}/mcp-client.html`);
  await waitForClient(page);
  await expect(panel.locator('[data-testid=event-row]')).toHaveCount(6);
  await page.goto(`${server.url}/blank.html`);
  // The panel has taken the navigation (its status bar shows the new page) and kept the old rows.
  await expect(panel.locator('.status-bar')).toContainText('blank.html');
  await expect(panel.locator('[data-testid=event-row]')).toHaveCount(6);
  await Promise.all([panel.close(), page.close()]);
});

test('an LLM completion stream is listed apart as an other stream, never as a session', async () => {
  const page = await openPage('/blank.html');
  const panel = await openPanelFor(page);
  await expect(panel.locator('[data-testid=empty-state]')).toBeVisible();
  const completion = () =>
    page.evaluate(async () => {
      const body = JSON.stringify({ model: 'fixture', stream: true, messages: [{ role: 'user', content: 'hi' }] });
      const res = await fetch('/v1/chat/completions', { method: 'POST', body });
      return res.text();
    });
  expect(await completion()).toContain('data: [DONE]');

  // Only the completion stream: the empty state says so and lists it, open.
  const emptyState = panel.locator('[data-testid=empty-state]');
  await expect(emptyState).toContainText('No MCP traffic on this page yet. 1 other stream (not MCP) is listed below.');
  const others = panel.locator('[data-testid=other-streams]');
  await expect(others).toContainText('Other streams (1)');
  await expect(others).toContainText('not MCP, not judged');
  const row = others.locator('[data-testid=other-stream-row]');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('OpenAI-style completions');
  await expect(row).toContainText(`POST ${server.url.replace('http://', '')}/v1/chat/completions`);
  await expect(row).toContainText('200');
  await expect(row).toContainText(`${OPENAI_CHUNKS.length + 1} ev`);
  await expect(panel.locator('[data-testid=session-row]')).toHaveCount(0);
  await panel.screenshot({ path: 'test-results/panel-other-streams-empty-chromium.png' });

  // Then MCP traffic: one session; the completion stream stays apart, folded under the sessions until clicked.
  await page.evaluate(async () => {
    const res = await fetch('/sse?n=3&gap=0', { headers: { 'mcp-protocol-version': '2025-11-25' } });
    return res.text();
  });
  await expect(panel.locator('[data-testid=session-row]')).toHaveCount(1);
  await expect(panel.locator('[data-testid=event-row]')).toHaveCount(3);
  await expect(others).toContainText('Other streams (1)');
  await expect(row).toHaveCount(0);
  await others.getByRole('button', { name: /Other streams/ }).click();
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('OpenAI-style completions');
  await panel.screenshot({ path: 'test-results/panel-other-streams-chromium.png' });
  await Promise.all([panel.close(), page.close()]);
});

test('a real DevTools window has the "MCP Streams" panel, and it shows the stream', async () => {
  const devtools = await launchChromium({ extension: DIST_CHROME, devtools: true });
  try {
    const page = await devtools.context.newPage();
    await page.goto(`${server.url}/mcp-client.html`);
    await waitForClient(page);
    const toolbox = await openChromiumToolbox(devtools, page.url(), 'MCP Streams');
    try {
      await expect.poll(() => toolbox.count('[data-testid=finding][data-rule="torn-event-reconnect"]')).toBe(1);
      await expect.poll(() => toolbox.count('[data-testid=session-row]')).toBe(1);
      await expect.poll(() => toolbox.count('[data-testid=event-row]')).toBe(6);
      await expect.poll(() => toolbox.count('[data-testid=reconnect-link][data-last-event-id="call-3"]')).toBe(1);
    } finally {
      // The whole DevTools window, panel included: look at it when this test fails.
      await toolbox.screenshot('test-results/panel-devtools-chromium.png');
      await toolbox.detach();
    }
  } finally {
    const report = await devtools.close();
    expect(report.violations).toEqual([]);
  }
});
