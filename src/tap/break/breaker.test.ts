import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionDelta } from '../../protocol/records';
import { type Handler, installTap, startServer, type TestServer } from '../test-harness';

// A Streamable HTTP server in miniature: initialize answers as an event stream, tools/call streams three events,
// a GET with Last-Event-ID replays the last two. Counts what reached it, to prove what a fault answered itself.
const EVENTS = [
  'id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n',
  'id: 2\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":2}}\n\n',
  'id: 3\ndata: {"jsonrpc":"2.0","id":2,"result":{"content":[]}}\n\n',
];
let server: TestServer;
const reached: string[] = [];

beforeAll(async () => {
  const mcp: Handler = (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const lastEventId = req.headers['last-event-id'];
      reached.push(req.method === 'GET' ? `GET ${String(lastEventId)}` : `POST ${body}`);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's-1' });
      if (req.method === 'GET') return res.end(EVENTS.slice(1).join(''));
      if (body.includes('"initialize"')) return res.end(`id: 0\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n`);
      res.write(EVENTS[0]);
      setTimeout(() => res.end(EVENTS.slice(1).join('')), 20);
    });
  };
  // A stream that stays open until the client goes: only a disconnect can close it.
  const open: Handler = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(EVENTS[0]);
    const timer = setInterval(() => res.write(': keep-alive\n\n'), 20);
    res.on('close', () => clearInterval(timer));
  };
  server = await startServer({ '/mcp': mcp, '/cut-here': open });
});
afterAll(() => server.close());

const post = (method: string, id: number) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'mcp-session-id': 's-1' },
  body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { name: 'echo' } }),
});
const resume = (lastEventId: string) => ({ headers: { 'mcp-session-id': 's-1', 'last-event-id': lastEventId } });

async function readAll(response: Response): Promise<{ text: string; error?: unknown }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

const kinds = (deltas: ConnectionDelta[], id: string) =>
  deltas.filter((d) => (d.kind === 'start' ? d.conn.id : d.id) === id).map((d) => d.kind);

describe('the Break menu in the tap', () => {
  it('cuts the first tools/call stream mid-event as a network error, never initialize, and disarms', async () => {
    const tap = installTap();
    await tap.setBreak({ armId: 'a1', faults: ['cut-mid-event:10'] });
    const init = await readAll(await tap.fetch(`${server.url}/mcp`, post('initialize', 1)));
    expect(init.error).toBeUndefined();
    const call = await readAll(await tap.fetch(`${server.url}/mcp`, post('tools/call', 2)));
    expect(call.error).toBeInstanceOf(TypeError);
    expect((call.error as TypeError).message).toBe('network error');
    // The first event that carries data, 10 bytes into its data.
    expect(call.text).toBe(`id: 1\ndata: ${EVENTS[0]!.slice(12, 22)}`);
    expect(tap.breaker.armed).toBe(false);
    await tap.settle();
    // The record: what the page got, the fault's mark, then the end it caused.
    expect(kinds(tap.deltas, 'c2')).toEqual(['start', 'response', 'fault', 'chunk', 'chunk', 'end']);
    const mark = tap.deltas.find((d) => d.kind === 'fault');
    expect(mark).toMatchObject({ id: 'c2', mark: { arm: 'a1', fault: 'cut-mid-event:10', action: 'cut' } });
    expect(mark?.kind === 'fault' && mark.mark.offset).toBe(call.text.length);
    expect(mark?.kind === 'fault' && mark.mark.note).toBe(
      'cut 22 bytes into the event with id 1; last whole event: none',
    );
    expect(tap.deltas.find((d) => d.kind === 'end' && d.id === 'c2')).toMatchObject({ end: 'network-error' });
    // The next call is not struck: one shot.
    const again = await readAll(await tap.fetch(`${server.url}/mcp`, post('tools/call', 3)));
    expect(again).toEqual({ text: EVENTS.join('') });
    tap.close();
  });

  it('the cut aborts the underlying fetch: the server sees the disconnect', async () => {
    const tap = installTap();
    await tap.setBreak({ armId: 'a2', faults: ['cut-at-boundary:1'] });
    const before = server.closedEarly.length;
    const call = await readAll(await tap.fetch(`${server.url}/cut-here`, post('tools/call', 2)));
    expect(call.text).toBe(EVENTS[0]);
    expect(call.error).toBeInstanceOf(TypeError);
    await tap.settle();
    while (server.closedEarly.length === before) await new Promise((r) => setTimeout(r, 5));
    expect(server.closedEarly.slice(before)).toContain('/cut-here');
    tap.close();
  });

  it('answers the resume after the cut itself (404), never reaching the server', async () => {
    const tap = installTap();
    await tap.setBreak({ armId: 'a3', faults: ['cut-at-boundary:1', 'resume-status:404'] });
    await readAll(await tap.fetch(`${server.url}/mcp`, post('tools/call', 2)));
    const count = reached.length;
    const answer = await tap.fetch(`${server.url}/mcp`, resume('1'));
    expect(answer.status).toBe(404);
    expect(answer.headers.get('x-mcp-stream-inspector-fault')).toBe('resume-status:404');
    expect(await answer.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    expect(reached.length).toBe(count);
    expect(tap.breaker.armed).toBe(false);
    // Unarmed again: the next resume goes to the server and gets its replay.
    const replay = await readAll(await tap.fetch(`${server.url}/mcp`, resume('1')));
    expect(replay.text).toBe(EVENTS.slice(1).join(''));
    expect(reached.slice(count)).toEqual(['GET 1']);
    await tap.settle();
    const marks = tap.deltas.flatMap((d) => (d.kind === 'fault' ? [[d.id, d.mark.action]] : []));
    expect(marks).toEqual([
      ['c1', 'cut'],
      ['c2', 'reject-resume'],
    ]);
    tap.close();
  });

  it('ends every resume itself with a new priming id, never reaching the server, until disarmed', async () => {
    const tap = installTap();
    await tap.setBreak({ armId: 'a6', faults: ['close-resumes'] });
    const count = reached.length;
    const first = await tap.fetch(`${server.url}/mcp`, resume('1'));
    expect([first.status, first.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    expect(await readAll(first)).toEqual({ text: 'id: 2\ndata: \n\n' });
    // The client's next resume, from the id it was just given: the same again, one further.
    expect(await readAll(await tap.fetch(`${server.url}/mcp`, resume('2')))).toEqual({ text: 'id: 3\ndata: \n\n' });
    expect(reached.length).toBe(count);
    expect(tap.breaker.armed).toBe(true);
    await tap.settle();
    const marks = tap.deltas.flatMap((d) => (d.kind === 'fault' ? [[d.id, d.mark.action, d.mark.note]] : []));
    expect(marks).toEqual([
      [
        'c1',
        'close-resume',
        'answered the resume from 1 with 200, a new priming id 2 and the end, server not contacted',
      ],
      [
        'c2',
        'close-resume',
        'answered the resume from 2 with 200, a new priming id 3 and the end, server not contacted',
      ],
    ]);
    // Disarmed, the next resume reaches the server and gets its replay.
    await tap.setBreak(null);
    expect((await readAll(await tap.fetch(`${server.url}/mcp`, resume('1')))).text).toBe(EVENTS.slice(1).join(''));
    expect(reached.slice(count)).toEqual(['GET 1']);
    tap.close();
  });

  it("drops the resume's first event, or re-delivers the cursor's event first", async () => {
    const tap = installTap();
    await tap.setBreak({ armId: 'a4', faults: ['cut-at-boundary:1', 'drop-first-replayed'] });
    await readAll(await tap.fetch(`${server.url}/mcp`, post('tools/call', 2)));
    expect((await readAll(await tap.fetch(`${server.url}/mcp`, resume('1')))).text).toBe(EVENTS[2]);
    await tap.setBreak({ armId: 'a5', faults: ['cut-at-boundary:1', 'replay-cursor'] });
    await readAll(await tap.fetch(`${server.url}/mcp`, post('tools/call', 2)));
    expect((await readAll(await tap.fetch(`${server.url}/mcp`, resume('1')))).text).toBe(
      EVENTS[0]! + EVENTS.slice(1).join(''),
    );
    tap.close();
  });

  it('a disarmed tap forwards as if nothing had been armed', async () => {
    const tap = installTap();
    await tap.setBreak({ armId: 'a6', faults: ['cut-mid-event'] });
    await tap.setBreak(null);
    expect(await readAll(await tap.fetch(`${server.url}/mcp`, post('tools/call', 2)))).toEqual({
      text: EVENTS.join(''),
    });
    await tap.settle();
    expect(tap.deltas.some((d) => d.kind === 'fault')).toBe(false);
    tap.close();
  });
});
