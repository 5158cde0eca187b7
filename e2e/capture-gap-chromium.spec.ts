// Node (Playwright): nothing lost, or the loss shown where it happened, on streams bigger than the bridge's buffer
// (4 MiB), in Chromium with the built extension and the real panel page: repeated service-worker stops while the panel
// watches, and a panel closed and reopened. Every stop happens at a point the server holds, never at a time.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { parseCapture } from '../src/core/index';
import type { ConnectionRecord } from '../src/core/capture/model';
import { DIST_CHROME, findTabId, openExtensionPage, panelUrl, stopServiceWorker } from './fixtures/extension';
import { readPanelProgress } from './fixtures/panel-view';
import { progressData, startFixtureServer, type FixtureServer } from './fixtures/sse-server';
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

/** The bytes `/sse?size=` sends for events 1..n (ASCII: one byte a character). */
function bytesThrough(n: number, size: number): number {
  let total = 0;
  for (let i = 1; i <= n; i++) total += `id: ${i}\ndata: ${progressData(i, size)}\n\n`.length;
  return total;
}

async function openPanelFor(page: Page): Promise<Page> {
  const helper = await openExtensionPage(session.context, session.extensionId!);
  const tabId = await findTabId(helper, page.url());
  await helper.close();
  const panel = await session.context.newPage();
  await panel.goto(panelUrl(extensionBase, tabId));
  return panel;
}

/** Starts reading `path` in the page; `__read` counts the bytes read so far, `__done` gives length and SHA-256. */
async function startReading(page: Page, path: string): Promise<void> {
  await page.evaluate((url) => {
    const w = window as unknown as { __read: number; __done: Promise<{ bytes: number; sha256: string }> };
    w.__read = 0;
    w.__done = (async () => {
      const res = await fetch(url, { headers: { 'mcp-protocol-version': '2025-11-25' } });
      const reader = res.body!.getReader();
      const parts: Uint8Array[] = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        w.__read += value.byteLength;
      }
      const whole = new Uint8Array(await new Blob(parts as BlobPart[]).arrayBuffer());
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', whole));
      return { bytes: whole.byteLength, sha256: Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('') };
    })();
  }, path);
}

const pageRead = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { __read: number }).__read);
const panelBytes = async (panel: Page): Promise<number> =>
  (await panel.evaluate(readPanelProgress)).wire?.streamBytes ?? -1;

async function exportStream(panel: Page, name: string): Promise<ConnectionRecord> {
  const [download] = await Promise.all([
    panel.waitForEvent('download'),
    panel.locator('[data-testid=export-capture]').click(),
  ]);
  const file = test.info().outputPath(name);
  await download.saveAs(file);
  // The export redacts nothing in a body of progress notifications: the bytes are the page's.
  const stream = parseCapture(readFileSync(file, 'utf8')).connections.find((c) => c.url.includes('/sse'));
  if (!stream) throw new Error('the export holds no /sse connection');
  return stream;
}

const joined = (record: ConnectionRecord): Buffer => Buffer.concat(record.chunks.map((c) => c.bytes));

test('five service-worker stops during a 6 MB stream: the record equals the page bytes, no drop notice', async () => {
  const size = 40_000;
  const n = 150;
  const stops = [25, 50, 75, 100, 125];
  const page = await session.context.newPage();
  await page.goto(`${server.url}/blank.html`);
  const panel = await openPanelFor(page);
  await expect(panel.locator('[data-testid=empty-state]')).toBeVisible();
  await startReading(page, `/sse?n=${n}&gap=0&size=${size}&hold=six-mb&holdAfter=${stops.join(',')}`);
  // The real panel reconnects on its own (pipeline-chromium.spec.ts keeps a probe's worker stopped while bytes flow).
  for (const at of stops) {
    // The server holds after event `at`: once the panel holds all the page read, the worker stops, then the stream
    // goes on while the panel brings the worker back.
    const expected = bytesThrough(at, size);
    await expect.poll(() => pageRead(page)).toBe(expected);
    await expect.poll(() => panelBytes(panel)).toBe(expected);
    await stopServiceWorker(session.context, session.extensionId!);
    server.release(`six-mb@${at}`);
  }
  const pageSaw = await page.evaluate(() => (window as unknown as { __done: Promise<{ bytes: number }> }).__done);
  expect(pageSaw.bytes).toBe(bytesThrough(n, size));
  await expect.poll(() => panelBytes(panel)).toBe(pageSaw.bytes);
  await expect.poll(async () => (await panel.evaluate(readPanelProgress)).wire?.streamsEnded).toBe(1);
  const stream = await exportStream(panel, 'six-mb.capture.json');
  expect(stream.end).toBe('complete');
  expect(stream.gaps).toBeUndefined();
  const bytes = joined(stream);
  expect(bytes.byteLength).toBe(pageSaw.bytes);
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(
    (await page.evaluate(() => (window as unknown as { __done: Promise<{ sha256: string }> }).__done)).sha256,
  );
  await expect(panel.locator('[data-testid=status-bar]')).not.toContainText('dropped');
  await expect(panel.locator('[data-testid=finding][data-rule="capture-gap"]')).toHaveCount(0);
  await Promise.all([panel.close(), page.close()]);
});

test('a panel closed and reopened on a 4.8 MB stream shows it, the evicted part marked as a gap at its offset', async () => {
  const size = 40_000;
  const n = 120;
  const page = await session.context.newPage();
  await page.goto(`${server.url}/blank.html`);
  let panel = await openPanelFor(page);
  await expect(panel.locator('[data-testid=empty-state]')).toBeVisible();
  await startReading(page, `/sse?n=${n}&gap=0&size=${size}`);
  const pageSaw = await page.evaluate(() => (window as unknown as { __done: Promise<{ bytes: number }> }).__done);
  await expect.poll(() => panelBytes(panel)).toBe(pageSaw.bytes);
  await panel.close();

  panel = await openPanelFor(page);
  await expect.poll(async () => (await panel.evaluate(readPanelProgress)).wire?.streamsEnded).toBe(1);
  await expect(panel.locator('[data-testid=event-row]').first()).toBeVisible();
  const stream = await exportStream(panel, 'reopened.capture.json');
  expect(stream.end).toBe('complete');
  const gaps = stream.gaps ?? [];
  expect(gaps).toHaveLength(1);
  const [gap] = gaps;
  expect(gap!.cause).toBe('evicted');
  // What is kept, with the gap's bytes put back where it says, is the page's body exactly.
  const kept = joined(stream);
  expect(kept.byteLength + gap!.bytes).toBe(pageSaw.bytes);
  const body = Buffer.from(
    Array.from({ length: n }, (_, i) => `id: ${i + 1}\ndata: ${progressData(i + 1, size)}\n\n`).join(''),
  );
  expect(kept.subarray(0, gap!.offset).equals(body.subarray(0, gap!.offset))).toBe(true);
  expect(kept.subarray(gap!.offset).equals(body.subarray(gap!.offset + gap!.bytes))).toBe(true);
  await expect(panel.locator('[data-testid=finding][data-rule="capture-gap"]')).toHaveCount(1);
  await expect(panel.locator('[data-testid=capture-gap]')).not.toHaveCount(0);
  await expect(panel.locator('[data-testid=status-bar]')).toContainText('before this panel attached');
  // A gap is never a server fault: no torn event, no parse error where the bytes before and after it meet.
  const rules = await panel
    .locator('[data-testid=finding]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-rule') ?? ''));
  expect(rules.filter((r) => r !== 'capture-gap')).toEqual([]);
  await Promise.all([panel.close(), page.close()]);
});
