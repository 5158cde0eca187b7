import { describe, expect, it } from 'vitest';
import { createClientGuard, type GuardFinding } from './client-guard';
import { isResumptionRejected, ResumptionRejectedError } from './errors';
import type { FetchLike } from './request';

// A scripted server: each call gets the next answer. The real SDKs and the fault proxy are exercised in
// e2e/lab/guard/ (client-guard.lab.test.ts); these cases pin the guard's decisions byte by byte.
interface Answer {
  status?: number;
  headers?: Record<string, string>;
  chunks?: string[];
  /** How the body ends: `error` fails the read as a dropped connection does; `open` never ends. */
  end?: 'clean' | 'error' | 'open';
}

interface Sent {
  method: string;
  headers: Headers;
  body?: string;
}

const enc = new TextEncoder();
const SSE = { 'content-type': 'text/event-stream' };
const SESSION = { 'mcp-session-id': 's1' };
const networkError = new TypeError('network error');

function scripted(answers: Answer[]): { fetch: FetchLike; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch: FetchLike = async (_url, init) => {
    sent.push({
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      ...(typeof init?.body === 'string' && { body: init.body }),
    });
    const answer = answers.shift();
    if (!answer) throw new Error('the script has no answer left');
    const chunks = [...(answer.chunks ?? [])];
    // One chunk per read, then the end: an error discards what is still queued, as no network does.
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const chunk = chunks.shift();
          if (chunk !== undefined) controller.enqueue(enc.encode(chunk));
          else if (answer.end === 'error') controller.error(networkError);
          else if (answer.end !== 'open') controller.close();
          else return new Promise<void>(() => undefined);
          return undefined;
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: answer.status ?? 200, headers: { ...SSE, ...answer.headers } });
  };
  return { fetch, sent };
}

/** Reads a body to its end: the text, and the error it ended with. */
async function readAll(response: Response): Promise<{ text: string; error?: unknown }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const dec = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text };
      text += dec.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

const call = (id: number) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'report', arguments: {} } });
const progress = (n: number) =>
  `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":${n}}}`;
const answer = (id: number | string) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[]}}`;
const event = (id: string | undefined, data: string) => `${id === undefined ? '' : `id: ${id}\n`}data: ${data}\n\n`;
const post = { method: 'POST', headers: { ...SESSION, 'content-type': 'application/json' }, body: call(7) };
const resume = (cursor: string) => ({ method: 'GET', headers: { ...SESSION, 'last-event-id': cursor } });

function guarded(answers: Answer[], options: Parameters<typeof createClientGuard>[0] = {}) {
  const server = scripted(answers);
  const findings: GuardFinding[] = [];
  const rejected: ResumptionRejectedError[] = [];
  const guard = createClientGuard({
    ...options,
    fetch: server.fetch,
    onFinding: (f) => findings.push(f),
    onRejected: (e) => rejected.push(e),
  });
  return { guard, sent: server.sent, findings, rejected };
}

describe('client guard: whole events', () => {
  it('never hands on a torn event, so a client that glues the resume onto it reads whole events only', async () => {
    const { guard, findings } = guarded([
      { chunks: [event('1', progress(1)), `id: 2\ndata: ${progress(2).slice(0, 30)}`], end: 'error' },
      { chunks: [event('2', progress(2)), event('3', answer(7))] },
    ]);
    const first = await readAll(await guard.fetch('http://h/mcp', post));
    expect(first.text).toBe(event('1', progress(1)));
    expect(first.error).toBe(networkError);
    const second = await readAll(await guard.fetch('http://h/mcp', resume('1')));
    expect(first.text + second.text).toBe(event('1', progress(1)) + event('2', progress(2)) + event('3', answer(7)));
    expect(findings.map((f) => [f.rule, f.action])).toEqual([['torn-event-reconnect', 'withheld']]);
    expect(guard.counts()).toEqual({ 'torn-event-reconnect': 1 });
  });

  it('works as SDK middleware over another fetch, sharing the guard', async () => {
    const server = scripted([{ chunks: [event('1', progress(1)), 'id: 2\ndata: {"torn'], end: 'error' }]);
    const guard = createClientGuard();
    const body = await readAll(await guard.middleware(server.fetch)('http://h/mcp', post));
    expect(body.text).toBe(event('1', progress(1)));
    expect(guard.counts()).toEqual({ 'torn-event-reconnect': 1 });
  });

  it('hands non-stream responses back as they came', async () => {
    const json = new Response('{"jsonrpc":"2.0","id":1,"result":{}}', {
      headers: { 'content-type': 'application/json' },
    });
    const guard = createClientGuard({ fetch: async () => json });
    expect(await guard.fetch('http://h/mcp', post)).toBe(json);
  });

  it('passes the network error of a failed fetch through unchanged', async () => {
    const guard = createClientGuard({ fetch: () => Promise.reject(networkError) });
    await expect(guard.fetch('http://h/mcp', post)).rejects.toBe(networkError);
  });
});

describe('client guard: resumes that continue', () => {
  it("drops the cursor's own event sent again, byte for byte, and continues", async () => {
    const { guard, findings, rejected } = guarded([
      { chunks: [event('1', progress(1)), event('2', progress(2))], end: 'error' },
      { chunks: [event('2', progress(2)), event('3', answer(7))] },
    ]);
    await readAll(await guard.fetch('http://h/mcp', post));
    const resumed = await readAll(await guard.fetch('http://h/mcp', resume('2')));
    expect(resumed).toEqual({ text: event('3', answer(7)) });
    expect(findings.map((f) => f.rule)).toEqual(['replayed-event-duplicate']);
    expect(rejected).toEqual([]);
  });

  it('continues across numbers that another stream of the session used', async () => {
    const { guard, rejected } = guarded([
      { chunks: [event('1', progress(1))], end: 'open' },
      { chunks: [event('2', progress(2))], end: 'error' },
      { chunks: [event('3', answer(7))] },
    ]);
    await guard.fetch('http://h/mcp', { method: 'GET', headers: SESSION }); // standalone stream: delivers 1
    const stream = await readAll(await guard.fetch('http://h/mcp', post));
    expect(stream.error).toBe(networkError);
    expect((await readAll(await guard.fetch('http://h/mcp', resume('2')))).text).toBe(event('3', answer(7)));
    expect(rejected).toEqual([]);
  });
});

describe('client guard: resumes refused', () => {
  /** A POST stream broken after `before`, then its resume answered `replay` (left open: a refusal must end it). */
  async function refusedResume(before: string[], replay: string[], end: Answer['end'] = 'open') {
    const run = guarded([
      { chunks: before, end: 'error' },
      { chunks: replay, end },
    ]);
    await readAll(await run.guard.fetch('http://h/mcp', post));
    const cursor = /id: (\S+)\n[^\n]*\n\n$/.exec(before.join(''))?.[1] ?? '';
    const resumed = await readAll(await run.guard.fetch('http://h/mcp', resume(cursor)));
    return { ...run, resumed };
  }

  it('refuses a foreign epoch before any of its events reach the client (epoch-mismatch)', async () => {
    const run = await refusedResume(
      [event('e1:1', progress(1)), event('e1:2', progress(2))],
      [event('e2:1', progress(1)), event('e2:2', answer(7))],
    );
    expect(run.resumed.text).toBe('');
    expect(run.resumed.error).toBeInstanceOf(ResumptionRejectedError);
    const error = run.resumed.error as ResumptionRejectedError;
    expect([error.rule, error.cursor, error.eventId, error.sessionId]).toEqual([
      'epoch-mismatch',
      'e1:2',
      'e2:1',
      's1',
    ]);
    expect(error.pendingRequestIds).toEqual([7]);
    expect(run.rejected).toEqual([error]);
    expect(isResumptionRejected(new Error(`SSE stream disconnected: ${String(error)}`))).toBe(true);
  });

  it('fails a second resume with the same cursor at once, without asking the server', async () => {
    const run = await refusedResume([event('e1:1', progress(1))], [event('e2:1', progress(1))]);
    const asked = run.sent.length;
    await expect(run.guard.fetch('http://h/mcp', resume('e1:1'))).rejects.toBe(run.resumed.error);
    expect(run.sent.length).toBe(asked);
  });

  it('refuses a restart: the resume starts again at an id before the cursor (resume-not-honored)', async () => {
    const run = await refusedResume(
      [event('1', progress(1)), event('2', progress(2))],
      [event('1', progress(1)), event('2', progress(2)), event('3', answer(7))],
    );
    expect((run.resumed.error as ResumptionRejectedError).rule).toBe('resume-not-honored');
  });

  it("refuses the cursor's id with another payload (a restarted counter)", async () => {
    const run = await refusedResume([event('1', progress(1)), event('2', progress(2))], [event('2', answer(7))]);
    expect((run.resumed.error as ResumptionRejectedError).rule).toBe('resume-not-honored');
  });

  it('refuses a gap when the session numbers its events one by one (resume-id-gap)', async () => {
    const run = await refusedResume([event('1', progress(1)), event('2', progress(2))], [event('5', answer(7))]);
    expect(run.resumed.error).toMatchObject({ rule: 'resume-id-gap' });
    expect((run.resumed.error as Error).message).toContain('2 events (3..4) never delivered');
  });

  it('lets a jump pass when the server never numbered events one by one', async () => {
    const run = await refusedResume(
      [event('1', progress(1)), event('4', progress(2))],
      [event('9', answer(7))],
      'clean',
    );
    expect(run.resumed).toEqual({ text: event('9', answer(7)) });
  });

  it('refuses ids of another SDK stream after the cursor', async () => {
    const run = await refusedResume(
      [event('streamA_1700000000000_ab12', progress(1))],
      [event('streamB_1700000000100_cd34', answer(7))],
    );
    expect(run.resumed.error).toMatchObject({ rule: 'resume-not-honored' });
  });

  it('takes a 404 to a resume as the server refusing it, and hands the response on as it came', async () => {
    const { guard, rejected, findings } = guarded([
      { chunks: [event('1', progress(1))], end: 'error' },
      { status: 404, headers: { 'content-type': 'application/json' }, chunks: ['{}'] },
    ]);
    await readAll(await guard.fetch('http://h/mcp', post));
    const refused = await guard.fetch('http://h/mcp', resume('1'));
    expect(refused.status).toBe(404);
    expect(await refused.text()).toBe('{}');
    expect(rejected.map((e) => e.rule)).toEqual(['resumption-rejected']);
    expect(findings.map((f) => f.action)).toEqual(['refused']);
  });

  it('takes a 409 to a resume as a refusal too (the field report: 409 and Retry-After force a new session)', async () => {
    const conflict: Answer = { status: 409, headers: { 'content-type': 'application/json', 'retry-after': '2' } };
    const { guard, rejected, sent } = guarded([{ chunks: [event('1', progress(1))], end: 'error' }, conflict]);
    await readAll(await guard.fetch('http://h/mcp', post));
    expect((await guard.fetch('http://h/mcp', resume('1'))).headers.get('retry-after')).toBe('2');
    expect(rejected.map((e) => e.rule)).toEqual(['resumption-rejected']);
    await expect(guard.fetch('http://h/mcp', resume('1'))).rejects.toBe(rejected[0]);
    expect(sent.length).toBe(2);
  });

  it('refuses resumes that keep ending with nothing delivered while the request waits', async () => {
    const { guard, sent, rejected } = guarded([
      { chunks: [event('1', progress(1))], end: 'error' },
      { chunks: [event('2', '')] },
      { chunks: [event('3', '')] },
    ]);
    await readAll(await guard.fetch('http://h/mcp', post));
    // The client resumes once; the guard resumes the clean end itself, and the second empty resume is refused.
    const resumed = await readAll(await guard.fetch('http://h/mcp', resume('1')));
    expect(resumed).toMatchObject({ text: event('2', '') + event('3', '') });
    expect(resumed.error).toBeInstanceOf(ResumptionRejectedError);
    expect(sent[2]?.headers.get('last-event-id')).toBe('2');
    expect(rejected.map((e) => e.rule)).toEqual(['reconnect-storm']);
  });

  it('refuses a resume that stays silent while its request waits, when silentResumeMs is set', async () => {
    const { guard, rejected } = guarded(
      [
        { chunks: [event('1', progress(1))], end: 'error' },
        { chunks: [': keep-alive\n\n'], end: 'open' },
      ],
      { silentResumeMs: 20 },
    );
    await readAll(await guard.fetch('http://h/mcp', post));
    const silent = await readAll(await guard.fetch('http://h/mcp', resume('1')));
    expect(silent.error).toBeInstanceOf(ResumptionRejectedError);
    expect(rejected.map((e) => e.rule)).toEqual(['resume-not-honored']);
  });
});

describe('client guard: a session the server no longer knows', () => {
  const gone: Answer = {
    status: 404,
    headers: { 'content-type': 'application/json' },
    chunks: ['{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}'],
  };

  it('ends the session at a 404 that says so: its waiting requests are named, later requests fail unsent', async () => {
    const { guard, rejected, sent } = guarded([{ chunks: [event('1', progress(1))], end: 'open' }, gone]);
    await guard.fetch('http://h/mcp', post);
    const standalone = await guard.fetch('http://h/mcp', { method: 'GET', headers: SESSION });
    expect(standalone.status).toBe(404);
    expect(await standalone.json()).toMatchObject({ error: { code: -32001 } });
    expect(rejected.map((e) => [e.rule, e.sessionId, e.pendingRequestIds])).toEqual([
      ['session-not-reinitialized', 's1', [7]],
    ]);
    await expect(guard.fetch('http://h/mcp', resume('1'))).rejects.toBe(rejected[0]);
    await expect(guard.fetch('http://h/mcp', post)).rejects.toBe(rejected[0]);
    expect(sent.length).toBe(2);
  });

  it('leaves the session alone when a GET route answers 404 for itself', async () => {
    const route: Answer = { status: 404, headers: { 'content-type': 'text/plain' }, chunks: ['Cannot GET /mcp'] };
    const { guard, rejected } = guarded([route, { chunks: [event('1', answer(7))] }]);
    expect((await guard.fetch('http://h/mcp', { method: 'GET', headers: SESSION })).status).toBe(404);
    expect((await readAll(await guard.fetch('http://h/mcp', post))).text).toBe(event('1', answer(7)));
    expect(rejected).toEqual([]);
  });
});

describe('client guard: a stream the server closed before its answer', () => {
  it('is resumed by the guard after its retry, and the client reads one stream to the answer', async () => {
    const { guard, sent, findings } = guarded([
      { chunks: [event('1', ''), 'retry: 5\n\n', event('2', progress(1))] },
      { chunks: [event('3', answer(7))] },
    ]);
    const body = await readAll(await guard.fetch('http://h/mcp', post));
    expect(body).toEqual({ text: event('1', '') + 'retry: 5\n\n' + event('2', progress(1)) + event('3', answer(7)) });
    expect([sent[1]?.method, sent[1]?.headers.get('last-event-id'), sent[1]?.headers.get('mcp-session-id')]).toEqual([
      'GET',
      '2',
      's1',
    ]);
    expect(findings.map((f) => [f.rule, f.action])).toEqual([['post-stream-not-resumed', 'resumed']]);
  });

  it('is left closed when the app says so, or when its answer came', async () => {
    const off = guarded([{ chunks: [event('1', progress(1))] }], { resumeClosedStreams: false });
    expect(await readAll(await off.guard.fetch('http://h/mcp', post))).toEqual({ text: event('1', progress(1)) });
    const answered = guarded([{ chunks: [event('1', answer(7))] }]);
    await readAll(await answered.guard.fetch('http://h/mcp', post));
    expect([off.sent.length, answered.sent.length]).toEqual([1, 1]);
  });
});

describe('client guard: a lost cursor', () => {
  it('sends the last id again when a resume dropped before any new id and the next GET has none (#2499)', async () => {
    const { guard, sent, findings } = guarded([
      { chunks: [event('1', progress(1))], end: 'error' },
      { chunks: [], end: 'error' },
      { chunks: [event('2', answer(7))] },
    ]);
    await readAll(await guard.fetch('http://h/mcp', post));
    await readAll(await guard.fetch('http://h/mcp', resume('1')));
    const next = await readAll(await guard.fetch('http://h/mcp', { method: 'GET', headers: SESSION }));
    expect(sent[2]?.headers.get('last-event-id')).toBe('1');
    expect(next.text).toBe(event('2', answer(7)));
    expect(findings.map((f) => f.action)).toEqual(['restored']);
  });
});

describe('client guard: 2026-07-28 re-issue', () => {
  const stateless = {
    method: 'POST',
    headers: { 'mcp-protocol-version': '2026-07-28', 'content-type': 'application/json' },
    body: call(7),
  };

  it('re-issues a broken stream once with a new id and hands the answer on under the original id', async () => {
    const { guard, sent, findings } = guarded([
      { chunks: [event(undefined, progress(1))], end: 'error' },
      { chunks: [event(undefined, progress(1)), event(undefined, answer('mcp-guard-reissue-7'))] },
    ]);
    const body = await readAll(await guard.fetch('http://h/mcp', stateless));
    expect(body.error).toBeUndefined();
    expect(body.text).toBe(event(undefined, progress(1)) + event(undefined, progress(1)) + event(undefined, answer(7)));
    expect(JSON.parse(sent[1]?.body ?? '{}')).toMatchObject({ id: 'mcp-guard-reissue-7', method: 'tools/call' });
    expect(findings.map((f) => [f.rule, f.action])).toEqual([['stateless-request-not-reissued', 'reissued']]);
  });

  it('re-issues nothing the app said must not run twice', async () => {
    const { guard, sent } = guarded([{ chunks: [event(undefined, progress(1))], end: 'error' }], {
      reissue: ({ method }) => method !== 'tools/call',
    });
    expect((await readAll(await guard.fetch('http://h/mcp', stateless))).error).toBe(networkError);
    expect(sent.length).toBe(1);
  });

  it('re-issues nothing once the answer came', async () => {
    const { guard, sent } = guarded([{ chunks: [event(undefined, answer(7))], end: 'error' }]);
    expect((await readAll(await guard.fetch('http://h/mcp', stateless))).error).toBe(networkError);
    expect(sent.length).toBe(1);
  });
});
