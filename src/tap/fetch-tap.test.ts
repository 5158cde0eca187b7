import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { redactedTag } from '../core/capture/redact/hash';
import { chunkedUpstream, installTap, startServer, streamParts, type TestServer } from './test-harness';

const EVENTS = ['id: 1\ndata: {"a":1}\n\n', 'id: 2\ndata: {"a"', ':2}\n\n', 'id: 3\ndata: {"a":3}\n\n'];

let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    '/sse': streamParts(EVENTS),
    '/slow': streamParts(
      Array.from({ length: 50 }, (_, i) => `data: ${i}\n\n`),
      { gapMs: 20 },
    ),
    '/cut': streamParts(EVENTS.slice(0, 2), { cut: true }),
    '/json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
    '/mcp': (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const id = (JSON.parse(body) as { id: number }).id;
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's-1' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result: {} }));
      });
    },
    '/accepted': (_req, res) => res.writeHead(202).end(),
    '/echo': (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(JSON.stringify(req.headers)),
  });
});
afterAll(() => server.close());

async function readChunks(response: Response): Promise<string[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(decoder.decode(value));
  }
}

describe('fetch tap: what the page sees', () => {
  it('delivers the same chunks and Response fields as the native fetch', async () => {
    const tap = installTap();
    const plain = await fetch(`${server.url}/sse`);
    const tapped = await tap.fetch(`${server.url}/sse`);
    expect(tapped).toBeInstanceOf(Response);
    for (const field of ['status', 'statusText', 'ok', 'redirected', 'type', 'url', 'bodyUsed'] as const) {
      expect(tapped[field]).toEqual(plain[field]);
    }
    expect([...tapped.headers].filter(([n]) => n !== 'date')).toEqual([...plain.headers].filter(([n]) => n !== 'date'));
    const [a, b] = await Promise.all([readChunks(plain), readChunks(tapped)]);
    expect(b.join('')).toBe(a.join(''));
    expect(tapped.bodyUsed).toBe(true);
  });

  it('hands the page exactly the chunks the network delivered, and records each once', async () => {
    const tap = installTap({ upstream: chunkedUpstream(EVENTS) });
    const response = await tap.fetch('http://127.0.0.1/sse');
    expect(await readChunks(response)).toEqual(EVENTS);
    await tap.settle();
    const recorded = tap.deltas
      .filter((d) => d.kind === 'chunk')
      .map((d) => (d.kind === 'chunk' ? new TextDecoder().decode(d.bytes) : ''));
    expect(recorded).toEqual(EVENTS);
  });

  it('reads a one-shot headers iterator once: the request goes out with its headers and the record lists them', async () => {
    const tap = installTap();
    const headers = [['mcp-session-id', 'session-13']].values();
    const res = await tap.fetch(`${server.url}/echo`, { headers: headers as unknown as HeadersInit });
    const sent = JSON.parse(await res.text()) as Record<string, string>;
    expect(sent['mcp-session-id']).toBe('session-13');
    await tap.settle();
    const start = tap.deltas.find((d) => d.kind === 'start');
    expect(start?.kind === 'start' && start.conn.requestHeaders).toEqual([
      { name: 'mcp-session-id', value: 'session-13' },
    ]);
  });

  it('looks like the native fetch', () => {
    const tap = installTap();
    expect(tap.fetch.name).toBe('fetch');
    expect(tap.fetch.length).toBe(fetch.length);
    expect(Function.prototype.toString.call(tap.fetch)).toMatch(/\[native code\]/);
  });

  it('text(), json-free reads and clone() keep working and are recorded once', async () => {
    const tap = installTap();
    const response = await tap.fetch(`${server.url}/sse`);
    const copy = response.clone();
    expect(copy).toBeInstanceOf(Response);
    const [text, copyText] = await Promise.all([response.text(), copy.text()]);
    expect(text).toBe(EVENTS.join(''));
    expect(copyText).toBe(text);
    await expect(response.text()).rejects.toThrow(TypeError);
    await tap.settle();
    expect(tap.bodyOf('c1')).toBe(EVENTS.join(''));
    expect(tap.deltas.filter((d) => d.kind === 'end')).toMatchObject([{ id: 'c1', end: 'complete' }]);
  });

  it('supports BYOB readers like a native byte stream', async () => {
    const tap = installTap();
    const response = await tap.fetch(`${server.url}/sse`);
    const reader = response.body!.getReader({ mode: 'byob' });
    let text = '';
    for (;;) {
      const { done, value } = await reader.read(new Uint8Array(8));
      if (done) break;
      text += Buffer.from(value).toString();
    }
    expect(text).toBe(EVENTS.join(''));
  });
});

describe('fetch tap: what it records', () => {
  it('records an event stream: head, every chunk with its time, and how it ended', async () => {
    const tap = installTap();
    // The tap's own clock (time origin + monotonic now): its chunk times must fall between these two readings.
    const clock = (): number => performance.timeOrigin + performance.now();
    const before = clock();
    const response = await tap.fetch(`${server.url}/sse`, {
      headers: { Authorization: 'Bearer x', Accept: 'text/event-stream' },
    });
    const chunks = await readChunks(response);
    const after = clock();
    await tap.settle();
    const start = tap.deltas.find((d) => d.kind === 'start');
    expect(start).toMatchObject({ conn: { id: 'c1', method: 'GET', url: `${server.url}/sse`, source: 'fetch' } });
    expect(start?.kind === 'start' && start.conn.requestHeaders).toEqual([
      { name: 'accept', value: 'text/event-stream' },
      { name: 'authorization', value: `Bearer ${redactedTag('x')}` },
    ]);
    expect(tap.deltas.find((d) => d.kind === 'response')).toMatchObject({ status: 200 });
    const recorded = tap.deltas.filter((d) => d.kind === 'chunk');
    expect(recorded).toHaveLength(chunks.length);
    const times = recorded.map((d) => (d.kind === 'chunk' ? d.t : 0));
    // Epoch times in arrival order, stamped while the page was reading: ordering, no tolerance.
    expect([before, ...times, after]).toEqual([before, ...times, after].sort((x, y) => x - y));
    expect(tap.bodyOf('c1')).toBe(EVENTS.join(''));
    expect(tap.deltas.at(-1)).toMatchObject({ kind: 'end', end: 'complete' });
  });

  it('keeps credentials when the user opted in', async () => {
    const tap = installTap({ revealSecrets: true });
    await (await tap.fetch(`${server.url}/sse`, { headers: { Authorization: 'Bearer x' } })).text();
    await tap.settle();
    const start = tap.deltas.find((d) => d.kind === 'start');
    expect(start?.kind === 'start' && start.conn.requestHeaders).toEqual([
      { name: 'authorization', value: 'Bearer x' },
    ]);
  });

  it('cancelling the body closes the upstream connection and ends the record aborted', async () => {
    const tap = installTap();
    const closedBefore = server.closedEarly.length;
    const response = await tap.fetch(`${server.url}/slow`);
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    // Waits for the server to see the close (an event), then for the tap's record of it; no fixed sleep.
    await vi.waitFor(() => expect(server.closedEarly.slice(closedBefore)).toContain('/slow'), { timeout: 5000 });
    await vi.waitFor(() => expect(tap.deltas.at(-1)).toMatchObject({ kind: 'end', end: 'aborted' }), { timeout: 5000 });
  });

  it('an AbortSignal aborts the page read with the native error and ends the record aborted', async () => {
    const tap = installTap();
    const controller = new AbortController();
    const response = await tap.fetch(`${server.url}/slow`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    await tap.settle();
    expect(tap.deltas.filter((d) => d.kind === 'end')).toMatchObject([{ end: 'aborted' }]);
  });

  it('a connection cut mid-event ends network-error holding the bytes delivered so far', async () => {
    const tap = installTap();
    const response = await tap.fetch(`${server.url}/cut`);
    await expect(readChunks(response)).rejects.toThrow(TypeError);
    await tap.settle();
    expect(tap.bodyOf('c1')).toBe(EVENTS.slice(0, 2).join(''));
    expect(tap.deltas.at(-1)).toMatchObject({ kind: 'end', end: 'network-error' });
  });

  it('records MCP POSTs with their body and JSON answer, and 202s', async () => {
    const tap = installTap();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
    const response = await tap.fetch(`${server.url}/mcp`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    await tap.fetch(`${server.url}/accepted`, { method: 'POST', headers: { 'Mcp-Session-Id': 's-1' }, body: 'x' });
    await tap.settle();
    expect(tap.deltas.find((d) => d.kind === 'start' && d.conn.id === 'c1')).toMatchObject({
      conn: { method: 'POST', requestBody: body },
    });
    expect(tap.bodyOf('c1')).toBe('{"jsonrpc":"2.0","id":7,"result":{}}');
    expect(tap.deltas.filter((d) => d.kind === 'response').map((d) => d.kind === 'response' && d.status)).toEqual([
      200, 202,
    ]);
    expect(tap.deltas.filter((d) => d.kind === 'end').map((d) => d.kind === 'end' && d.end)).toEqual([
      'complete',
      'complete',
    ]);
  });

  it('leaves other traffic alone', async () => {
    const tap = installTap();
    expect(await (await tap.fetch(`${server.url}/json`)).json()).toEqual({ ok: true });
    await tap.fetch(`${server.url}/missing`);
    await tap.settle();
    expect(tap.deltas).toEqual([]);
  });

  it('a failing fetch rejects with the native error and records network-error', async () => {
    const tap = installTap();
    const error = await tap
      .fetch('http://127.0.0.1:1/mcp', { headers: { 'mcp-session-id': 'x' } })
      .catch((e: unknown) => e);
    const nativeError = await fetch('http://127.0.0.1:1/mcp').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe((nativeError as Error).message);
    await tap.settle();
    expect(tap.deltas.at(-1)).toMatchObject({ kind: 'end', end: 'network-error' });
  });
});
