import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionDelta } from '../../protocol/records';
import { type Handler, installTap, startServer, type TestServer } from '../test-harness';

// The Break menu's silence faults in the tap, against a server that writes a priming event, then a progress event,
// then (a moment later) the answer; or, for the tool "silent", the priming event and then nothing until the client
// goes; a GET is the standalone stream of an idle session: its head, then nothing. The page reads each body read by
// read, so "held until the end" shows as one read.
const PRIMING = 'id: 0\ndata: \n\n';
const PROGRESS = 'id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n';
const RESULT = 'id: 2\ndata: {"jsonrpc":"2.0","id":2,"result":{"content":[]}}\n\n';
let server: TestServer;

beforeAll(async () => {
  const mcp: Handler = (req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders();
      return;
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's-1' });
      res.write(PRIMING);
      if (body.includes('"silent"')) return;
      setTimeout(() => res.write(PROGRESS), 10);
      setTimeout(() => res.end(RESULT), 30);
    });
  };
  server = await startServer({ '/mcp': mcp });
});
afterAll(() => server.close());

const call = (tool: string, id = 2) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'mcp-session-id': 's-1' },
  body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool } }),
});

/** Every read of the body, as text, and the error that ended it if one did. */
async function reads(response: Response): Promise<{ parts: string[]; error?: unknown }> {
  const reader = response.body!.getReader();
  const parts: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { parts };
      parts.push(new TextDecoder().decode(value));
    }
  } catch (error) {
    return { parts, error };
  }
}

const marks = (deltas: ConnectionDelta[]) =>
  deltas.flatMap((d) => (d.kind === 'fault' ? [[d.mark.fault, d.mark.action, d.mark.offset, d.mark.note]] : []));

describe('the silence faults in the tap', () => {
  it('buffer: the page gets the head and the whole body in one read, after the server ended it', async () => {
    const tap = installTap();
    await tap.setBreak({ armId: 'b1', faults: ['buffer'] });
    const got = await reads(await tap.fetch(`${server.url}/mcp`, call('report')));
    expect(got).toEqual({ parts: [PRIMING + PROGRESS + RESULT] });
    expect(tap.breaker.armed).toBe(false);
    await tap.settle();
    const bytes = (PRIMING + PROGRESS + RESULT).length;
    expect(marks(tap.deltas)).toEqual([
      ['buffer', 'buffer', 0, `held 3 events (${bytes} bytes) and the head until the end, then sent them at once`],
    ]);
    tap.close();
  });

  it('stall: the priming event, then a pause, then the rest whole', async () => {
    const tap = installTap();
    await tap.setBreak({ armId: 'b2', faults: ['stall:50'] });
    const got = await reads(await tap.fetch(`${server.url}/mcp`, call('report')));
    expect(got.error).toBeUndefined();
    expect(got.parts[0]).toBe(PRIMING);
    expect(got.parts.join('')).toBe(PRIMING + PROGRESS + RESULT);
    await tap.settle();
    expect(marks(tap.deltas)).toEqual([
      ['stall:50', 'stall', PRIMING.length, 'stopped forwarding for 50 ms before the event that carries data first'],
    ]);
    tap.close();
  });

  it('idle-cut: a silent stream fails the page read as a network error, and the server sees the client go', async () => {
    const tap = installTap();
    await tap.setBreak({ armId: 'b3', faults: ['idle-cut:0.05'] });
    const before = server.closedEarly.length;
    const got = await reads(await tap.fetch(`${server.url}/mcp`, call('silent')));
    expect(got.parts).toEqual([PRIMING]);
    expect(got.error).toBeInstanceOf(TypeError);
    expect((got.error as TypeError).message).toBe('network error');
    while (server.closedEarly.length === before) await new Promise((r) => setTimeout(r, 5));
    await tap.settle();
    expect(marks(tap.deltas)).toEqual([
      [
        'idle-cut:0.05',
        'idle-cut',
        PRIMING.length,
        'cut after 0.05 s with no byte sent, between events; last whole event: 0',
      ],
    ]);
    const end = tap.deltas.find((d) => d.kind === 'end');
    expect(end).toMatchObject({ end: 'network-error' });
    tap.close();
  });

  it('idle-cut ends the network fetch itself (its signal aborts), and the page aborting still ends it as its own', async () => {
    const signals: (AbortSignal | null | undefined)[] = [];
    const upstream: typeof fetch = (input, init) => {
      signals.push(init?.signal);
      return fetch(input, init);
    };
    const tap = installTap({ upstream });
    await tap.setBreak({ armId: 'b6', faults: ['idle-cut:0.05'] });
    const cut = await reads(await tap.fetch(`${server.url}/mcp`, call('silent')));
    expect((cut.error as TypeError).message).toBe('network error');
    expect(signals.map((signal) => signal?.aborted)).toEqual([true]);
    // Armed again, the page's own abort: the read fails with the page's reason, before any cut.
    await tap.setBreak({ armId: 'b7', faults: ['idle-cut:60'] });
    const page = new AbortController();
    const response = await tap.fetch(`${server.url}/mcp`, { ...call('silent'), signal: page.signal });
    page.abort('the page let go');
    expect((await reads(response)).error).toBe('the page let go');
    expect(signals.map((signal) => [signal?.aborted, signal?.reason])).toEqual([
      [true, expect.anything()],
      [true, 'the page let go'],
    ]);
    tap.close();
  });

  it('idle-cut@every (an idle proxy): every quiet stream is cut, the standalone GET and a call, until disarmed', async () => {
    const tap = installTap();
    await tap.setBreak({ armId: 'b5', faults: ['idle-cut:0.05@every'] });
    const standalone = { headers: { 'mcp-session-id': 's-1', accept: 'text/event-stream' } };
    const before = server.closedEarly.length;
    // The standalone GET, the call, the GET reopened: each cut for its own silence, in the order they were opened.
    const first = await reads(await tap.fetch(`${server.url}/mcp`, standalone));
    const called = await reads(await tap.fetch(`${server.url}/mcp`, call('silent', 3)));
    const again = await reads(await tap.fetch(`${server.url}/mcp`, standalone));
    expect([first, called, again].map((r) => [r.parts, (r.error as TypeError).message])).toEqual([
      [[], 'network error'],
      [[PRIMING], 'network error'],
      [[], 'network error'],
    ]);
    // Still armed after three strikes: it stands for an intermediary, not one fault.
    expect(tap.breaker.armed).toBe(true);
    while (server.closedEarly.length < before + 3) await new Promise((r) => setTimeout(r, 5));
    await tap.settle();
    const quietGet = 'cut after 0.05 s with no byte sent, between events; last whole event: none';
    expect(marks(tap.deltas)).toEqual([
      ['idle-cut:0.05@every', 'idle-cut', 0, quietGet],
      [
        'idle-cut:0.05@every',
        'idle-cut',
        PRIMING.length,
        'cut after 0.05 s with no byte sent, between events; last whole event: 0',
      ],
      ['idle-cut:0.05@every', 'idle-cut', 0, quietGet],
    ]);
    expect(tap.deltas.filter((d) => d.kind === 'end').map((d) => d.kind === 'end' && d.end)).toEqual([
      'network-error',
      'network-error',
      'network-error',
    ]);
    // Disarmed, the tap no longer plans a fetch at all.
    await tap.setBreak(null);
    expect(tap.breaker.armed).toBe(false);
    tap.close();
  });

  it('buffer then idle-cut: the head never came, so the fetch itself fails as a dropped connection does', async () => {
    const tap = installTap();
    await tap.setBreak({ armId: 'b4', faults: ['buffer', 'idle-cut:0.05'] });
    const failed = await tap.fetch(`${server.url}/mcp`, call('silent')).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(TypeError);
    expect((failed as TypeError).message).toBe('Failed to fetch');
    await tap.settle();
    expect(marks(tap.deltas).map(([fault, action]) => [fault, action])).toEqual([
      ['idle-cut:0.05', 'idle-cut'],
      ['buffer', 'buffer'],
    ]);
    tap.close();
  });
});
