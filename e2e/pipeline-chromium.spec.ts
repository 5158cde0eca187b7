// Node (Playwright): tap -> bridge -> background -> panel protocol in Chromium with the built extension, checked
// with a probe that speaks the panel protocol (no panel UI involved).
import { expect, test, type Page } from '@playwright/test';
import {
  DIST_CHROME,
  findTabId,
  header,
  holdProbe,
  openExtensionPage,
  probeDigest,
  probeStatus,
  probeTab,
  serviceWorkerRunning,
  stopServiceWorker,
  type ProbeConnection,
} from './fixtures/extension';
import { fixtureEventsText, progressData, startFixtureServer, type FixtureServer } from './fixtures/sse-server';
import { launchChromium, type ChromiumSession } from './launcher';
import { redactedTag } from '../src/core/capture/redact/hash';

let server: FixtureServer;
let session: ChromiumSession;
let extensionId: string;

test.beforeAll(async () => {
  server = await startFixtureServer();
  session = await launchChromium({ extension: DIST_CHROME });
  extensionId = session.extensionId!;
});

test.afterAll(async () => {
  const report = await session.close();
  await server.close();
  expect(report.violations).toEqual([]);
});

const probe = (page: Page): Promise<Page> => probeTab(session.context, extensionId, page);

async function settings(values: Record<string, unknown>): Promise<void> {
  const ext = await openExtensionPage(session.context, extensionId);
  await ext.evaluate((v) => (globalThis as unknown as { chrome: typeof chrome }).chrome.storage.local.set(v), values);
  await ext.close();
}

const mcpOnly = (conns: ProbeConnection[]): ProbeConnection[] => conns.filter((c) => c.url.endsWith('/mcp'));

test('records from document_start, before any panel is open, exactly what the server sent', async () => {
  const page = await session.context.newPage();
  await page.goto(`${server.url}/mcp-client.html`);
  const log = await page.evaluate(() => (window as unknown as { __done: Promise<string[]> }).__done);
  expect(log).toEqual([
    'init init-1',
    'call call-1',
    'call call-2',
    'call call-3',
    'cut TypeError',
    'resume call-4',
    'resume call-5',
  ]);

  const ext = await probe(page);
  const { connections } = await probeStatus(ext);
  const [init, initialized, call, resume] = mcpOnly(connections);
  expect(init).toMatchObject({ method: 'POST', status: 200, end: 'complete', source: 'fetch' });
  expect(JSON.parse(init!.requestBody!)).toMatchObject({ method: 'initialize' });
  expect(init!.body).toContain('"protocolVersion":"2025-11-25"');
  expect(initialized).toMatchObject({ method: 'POST', status: 202, end: 'complete', body: '' });
  expect(call).toMatchObject({ method: 'POST', status: 200, end: 'network-error' });
  const expected = fixtureEventsText();
  expect(call!.body.startsWith(expected.torn)).toBe(true);
  expect(call!.body.length).toBe(expected.torn.length + 40);
  expect(resume).toMatchObject({ method: 'GET', status: 200, end: 'complete', body: expected.resumed });
  expect(header(resume!.requestHeaders, 'last-event-id')).toBe('call-3');
  expect(header(resume!.requestHeaders, 'mcp-session-id')).toBe('fixture-session-1');
  await ext.close();
  await page.close();
});

test('EventSource streams are recorded as reconstructed events, each reconnect with its Last-Event-ID', async () => {
  const page = await session.context.newPage();
  await page.goto(`${server.url}/eventsource.html`);
  const messages = await page.evaluate(() => (window as unknown as { __done: Promise<string[]> }).__done);
  expect(messages).toHaveLength(5);
  const ext = await probe(page);
  const streams = (await probeStatus(ext)).connections.filter((c) => c.source === 'eventsource');
  expect(streams).toHaveLength(2);
  const [first, second] = streams;
  expect(first).toMatchObject({ method: 'GET', status: 200, end: 'network-error' });
  expect(first!.body).toBe([1, 2, 3].map((n) => `id: ${n}\ndata: ${progressData(n, 16)}\n\n`).join(''));
  expect(header(first!.requestHeaders, 'last-event-id')).toBeUndefined();
  expect(header(second!.requestHeaders, 'last-event-id')).toBe('3');
  expect(second).toMatchObject({ status: 200, end: 'aborted' });
  expect(second!.body).toContain(`id: 1\ndata: ${progressData(1, 16)}`);
  await ext.close();
  await page.close();
});

test('stopping the service worker mid-stream loses nothing', async () => {
  const page = await session.context.newPage();
  await page.goto(`${server.url}/blank.html`);
  const ext = await probe(page);
  const reading = page.evaluate(async () => {
    let text = '';
    let chunks = 0;
    const res = await fetch('/sse?n=30&gap=0&size=50&hold=pipeline-sw&holdAfter=10', {
      headers: { accept: 'text/event-stream' },
    });
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, chunks };
      text += new TextDecoder().decode(value);
      chunks++;
    }
  });
  // The server holds the stream after event 10: the worker stops mid-stream by construction, not by timing.
  await expect.poll(async () => (await probeStatus(ext)).connections[0]?.body.includes('id: 10\n') ?? false).toBe(true);
  await stopServiceWorker(session.context, extensionId);
  await expect.poll(async () => (await probeStatus(ext)).snapshots).toBeGreaterThan(1);
  server.release('pipeline-sw');
  const pageSaw = await reading;
  await expect
    .poll(async () => (await probeStatus(ext)).connections.find((c) => c.url.includes('/sse'))?.end)
    .toBe('complete');
  const recorded = (await probeStatus(ext)).connections.find((c) => c.url.includes('/sse'))!;
  expect(recorded.body).toBe(pageSaw.text);
  expect(recorded.chunks).toBe(pageSaw.chunks);
  await ext.close();
  await page.close();
});

/** n events of `size` bytes, the worker stopped at each hold in `stops` and kept stopped while the next part flows. */
async function stopsDuring(n: number, size: number, stops: number[]): Promise<void> {
  const through = (k: number): number => {
    let total = 0;
    for (let i = 1; i <= k; i++) total += `id: ${i}\ndata: ${progressData(i, size)}\n\n`.length;
    return total;
  };
  const page = await session.context.newPage();
  await page.goto(`${server.url}/blank.html`);
  const ext = await probe(page);
  await page.evaluate(
    (url) => {
      const w = window as unknown as { __read: number; __done: Promise<string> };
      w.__read = 0;
      w.__done = (async () => {
        const reader = (await fetch(url, { headers: { accept: 'text/event-stream' } })).body!.getReader();
        const parts: Uint8Array[] = [];
        for (let r = await reader.read(); !r.done; r = await reader.read()) {
          parts.push(r.value);
          w.__read += r.value.byteLength;
        }
        const whole = await new Blob(parts as BlobPart[]).arrayBuffer();
        const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', whole));
        return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
      })();
    },
    `/sse?n=${n}&gap=0&size=${size}&hold=stops-${n}&holdAfter=${stops.join(',')}`,
  );
  const pageRead = (): Promise<number> => page.evaluate(() => (window as unknown as { __read: number }).__read);
  const recorded = async (): Promise<number> => (await probeDigest(ext, '/sse'))?.bytes ?? -1;
  for (const [k, at] of stops.entries()) {
    // Held after event `at`: the probe holds all the page read; the worker stops and stays stopped (the probe does
    // not reconnect) while the stream goes on to the next hold, so those bytes reach a bridge with no worker.
    await expect.poll(pageRead, { timeout: 60_000 }).toBe(through(at));
    await expect.poll(recorded, { timeout: 60_000 }).toBe(through(at));
    await holdProbe(ext, true);
    await stopServiceWorker(session.context, extensionId);
    server.release(`stops-${n}@${at}`);
    await expect.poll(pageRead, { timeout: 60_000 }).toBe(through(stops[k + 1] ?? n));
    expect(await serviceWorkerRunning(session.context, extensionId)).toBe(false);
    await holdProbe(ext, false);
  }
  const sha256 = await page.evaluate(() => (window as unknown as { __done: Promise<string> }).__done);
  await expect.poll(recorded, { timeout: 60_000 }).toBe(through(n));
  const digest = await probeDigest(ext, '/sse');
  expect(digest).toEqual({ bytes: through(n), sha256, end: 'complete' });
  await ext.close();
  await page.close();
}

test('five worker stops during a 6 MB stream, each while bytes arrive: the record equals the page bytes', async () => {
  await stopsDuring(150, 40_000, [25, 50, 75, 100, 125]);
});

test('five worker stops during a 64 MB stream, each while 12 MB arrive: the record equals the page bytes', async () => {
  await stopsDuring(1600, 40_000, [300, 600, 900, 1200, 1500]);
});

test('subframes are recorded under frame-scoped ids; navigation is reported; clear empties the buffers', async () => {
  const page = await session.context.newPage();
  await page.goto(`${server.url}/frames.html`);
  const frame = page.frames().find((f) => f.url().endsWith('/mcp-client.html'))!;
  await frame.evaluate(() => (window as unknown as { __done: Promise<string[]> }).__done);
  const ext = await probe(page);
  const calls = mcpOnly((await probeStatus(ext)).connections);
  expect(calls).toHaveLength(4);
  for (const c of calls) expect(c.id).toMatch(/^f\d+\./);

  await page.goto(`${server.url}/blank.html`);
  await expect.poll(async () => (await probeStatus(ext)).navigated).toContain(`${server.url}/blank.html`);

  await page.evaluate(() =>
    fetch('/mcp', { method: 'POST', headers: { 'mcp-session-id': 'x' }, body: '{}' }).then((r) => r.text()),
  );
  await expect.poll(async () => mcpOnly((await probeStatus(ext)).connections).length).toBe(5);
  await ext.evaluate(
    (tabId) => {
      const port = (globalThis as unknown as { chrome: typeof chrome }).chrome.runtime.connect({ name: 'panel' });
      port.postMessage({ type: 'clear', tabId });
    },
    await findTabId(ext, page.url()),
  );
  const fresh = await probe(page);
  await expect.poll(async () => (await probeStatus(fresh)).connections.length).toBe(0);
  await Promise.all([ext.close(), fresh.close(), page.close()]);
});

test('credentials are redacted unless the user opts in; the buffer budget drops whole connections', async () => {
  const run = async (): Promise<Page> => {
    const page = await session.context.newPage();
    await page.goto(`${server.url}/blank.html`);
    await page.evaluate(async () => {
      const headers = { authorization: 'Bearer s3cret', 'mcp-session-id': 'x', 'content-type': 'application/json' };
      await (await fetch('/mcp', { method: 'POST', headers, body: '{"jsonrpc":"2.0","method":"ping"}' })).text();
    });
    return page;
  };
  let page = await run();
  let ext = await probe(page);
  expect(header(mcpOnly((await probeStatus(ext)).connections)[0]!.requestHeaders, 'authorization')).toBe(
    `Bearer ${redactedTag('s3cret')}`,
  );
  await Promise.all([ext.close(), page.close()]);

  await settings({ 'settings.revealSecrets': true, 'settings.bufferBytes': 64 * 1024 });
  try {
    page = await run();
    ext = await probe(page);
    expect(header(mcpOnly((await probeStatus(ext)).connections)[0]!.requestHeaders, 'authorization')).toBe(
      'Bearer s3cret',
    );
    await ext.close();
    await page.evaluate(async () => {
      for (let i = 0; i < 3; i++) await (await fetch('/sse?n=30&gap=0&size=1000')).text();
    });
    ext = await probe(page);
    const status = await probeStatus(ext);
    // 3 x ~31 KB against a 64 KiB budget: the oldest completed connections went first, the MCP POST among them.
    expect(mcpOnly(status.connections)).toEqual([]);
    const streams = status.connections.filter((c) => c.url.includes('/sse'));
    expect(streams.length).toBeLessThan(3);
    expect(streams.length).toBeGreaterThan(0);
    for (const s of streams) expect(s).toMatchObject({ end: 'complete' });
    expect(status.droppedBytes).toBeGreaterThan(30_000);
    await Promise.all([ext.close(), page.close()]);
  } finally {
    await settings({ 'settings.revealSecrets': false, 'settings.bufferBytes': 4 * 1024 * 1024 });
  }
});
