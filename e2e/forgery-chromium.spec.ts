// Node (Playwright): a hostile page script against the tap <-> bridge link in Chromium with the built extension. It
// tries every way in it can think of (the old event names, window messages, a hello to get the port offered again,
// a second port of its own, the real connection's id and the next ones), while a real stream is held open; the
// records must stay exactly what the page's fetch got, and nothing forged may appear beside them.
import { expect, test, type Page } from '@playwright/test';
import { DIST_CHROME, probeStatus, probeTab } from './fixtures/extension';
import { startFixtureServer, type FixtureServer } from './fixtures/sse-server';
import { launchChromium, type ChromiumSession } from './launcher';

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

/** Runs in the page, as any page script could: every forgery it knows, aimed at `realId` and the ids after it. */
async function forgeEverything(realId: string): Promise<{ gotPort: boolean; tried: number }> {
  const forgedBytes = new TextEncoder().encode('id: 666\ndata: {"jsonrpc":"2.0","method":"FORGED"}\n\n');
  const [instance, counter] = [realId.slice(0, realId.lastIndexOf('-')), Number(realId.split('-').pop())];
  const ids = [realId, ...[1, 2, 3].map((k) => `${instance}-${counter + k}`)];
  const start = (id: string) => ({
    kind: 'start',
    conn: { id, source: 'fetch', method: 'GET', url: 'http://evil.invalid/forged', requestHeaders: [], startTime: 1 },
  });
  const deltas = ids.flatMap((id) => [
    start(id),
    { kind: 'response', id, status: 500, statusText: 'forged', responseHeaders: [], responseTime: 2 },
    { kind: 'chunk', id, t: 3, bytes: forgedBytes.slice() },
    { kind: 'end', id, end: 'complete', endTime: 4 },
  ]);
  const message = { source: 'mcp-stream-inspector/tap', instance, deltas };
  let tried = 0;
  // 1. Window messages and CustomEvents under every name the extension ever used.
  window.postMessage(message, '*');
  window.postMessage({ ...message, source: 'mcp-stream-inspector' }, '*');
  for (const name of ['port', 'hello', 'delta', 'deltas', 'chunk', 'end', 'tap', 'record', 'batch']) {
    for (const prefix of ['mcp-stream-inspector:', 'mcp-stream-inspector/', 'mcpStreamInspector:']) {
      window.dispatchEvent(new CustomEvent(prefix + name, { detail: message }));
      document.dispatchEvent(new CustomEvent(prefix + name, { detail: message }));
      tried++;
    }
  }
  const mine = new MessageChannel();
  // 2. Ask for the tap's port again (a hello, as a late bridge would) and use it if it is offered.
  let gotPort = false;
  window.addEventListener('mcp-stream-inspector:port', (event) => {
    const port = (event as MessageEvent).ports[0];
    if (!port || port === mine.port2) return;
    gotPort = true;
    port.postMessage(message);
  });
  window.dispatchEvent(new Event('mcp-stream-inspector:hello'));
  // 3. Offer a port of its own, as if it were the tap, then speak the tap's protocol on it.
  window.dispatchEvent(new MessageEvent('mcp-stream-inspector:port', { ports: [mine.port2], cancelable: true }));
  mine.port1.postMessage(message);
  for (const id of ids)
    mine.port1.postMessage({ ...message, deltas: [{ kind: 'end', id, end: 'aborted', endTime: 5 }] });
  // 4. The same to every frame and the top, as an embedded page would.
  window.top?.postMessage(message, '*');
  tried += 4;
  // Whatever it set off has run before the page reads on (the bridge would answer in a task of its own).
  await new Promise((resolve) => setTimeout(resolve, 0));
  return { gotPort, tried };
}

test('a page script cannot inject into, end, relabel or add to what the tap records', async () => {
  const page = await session.context.newPage();
  await page.goto(`${server.url}/blank.html`);
  const ext = await probe(page);
  const reading = page.evaluate(async () => {
    const res = await fetch('/sse?n=10&gap=0&size=40&hold=forgery&holdAfter=4', {
      headers: { accept: 'text/event-stream' },
    });
    return { text: await res.text(), status: res.status };
  });
  // Held after event 4: the forgeries land while the real stream is open, by construction.
  await expect
    .poll(async () => (await probeStatus(ext)).connections.find((c) => c.url.includes('/sse'))?.body ?? '')
    .toContain('id: 4\n');
  const real = (await probeStatus(ext)).connections.find((c) => c.url.includes('/sse'))!;
  const forged = await page.evaluate(forgeEverything, real.id);
  expect(forged.gotPort).toBe(false);
  expect(forged.tried).toBeGreaterThan(20);
  server.release('forgery');
  const pageSaw = await reading;
  // A real request after the forgeries gets the id they predicted for it, and keeps its own head and body.
  const second = await page.evaluate(async () => {
    const res = await fetch('/sse?n=2&gap=0&size=10', { headers: { accept: 'text/event-stream' } });
    return res.text();
  });
  await expect
    .poll(async () => (await probeStatus(ext)).connections.filter((c) => c.end === 'complete').length)
    .toBe(2);
  const { connections } = await probeStatus(ext);
  expect(connections.map((c) => new URL(c.url).pathname)).toEqual(['/sse', '/sse']);
  const [first, next] = connections;
  expect(first).toMatchObject({ id: real.id, status: pageSaw.status, end: 'complete', body: pageSaw.text });
  expect(next).toMatchObject({ status: 200, end: 'complete', body: second });
  const [instance, counter] = [real.id.slice(0, real.id.lastIndexOf('-')), Number(real.id.split('-').pop())];
  expect([1, 2, 3].map((k) => `${instance}-${counter + k}`)).toContain(next!.id);
  for (const c of connections) expect(c.body).not.toContain('FORGED');
  await Promise.all([ext.close(), page.close()]);
});
