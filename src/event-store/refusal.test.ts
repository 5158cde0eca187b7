// Runs in Node (vitest): each refusal reason on the wire (status, headers, JSON-RPC body), through both pre-checks.
import { describe, expect, it } from 'vitest';
import { createEpochEventStore } from './memory';
import { refuseStaleResumeNode } from './node';
import { RESUME_REFUSED_STATUS, RESUMPTION_REJECTED_CODE } from './refusal';
import type { RefusalReason } from './types';
import { refuseStaleResume } from './web';

async function setup() {
  const store = createEpochEventStore();
  const view = store.forSession('s1');
  const cursor = await view.storeEvent('A', {});
  const foreign = await createEpochEventStore().forSession('s1').storeEvent('A', {});
  return { store, cursor, foreign };
}

const resume = (cursor: string | undefined, session = 's1', method = 'GET'): Request =>
  new Request('http://127.0.0.1/mcp', {
    method,
    headers: {
      accept: 'text/event-stream',
      'mcp-session-id': session,
      ...(cursor !== undefined && { 'last-event-id': cursor }),
    },
  });

/** A node:http-shaped response that keeps what was written. */
function nodeResponse() {
  const written: { status?: number; headers?: Record<string, string>; body?: string } = {};
  return {
    written,
    writeHead: (status: number, headers: Record<string, string>) => Object.assign(written, { status, headers }),
    end: (body: string) => Object.assign(written, { body }),
  };
}

describe('the refusal on the wire', () => {
  it('is 400, no-store, a JSON-RPC error naming the reason, the cursor and the server epoch', async () => {
    const { store, cursor, foreign } = await setup();
    const cases: [RefusalReason, string, string][] = [
      ['foreign-epoch', foreign, 's1'],
      ['other-session', cursor, 's2'],
      ['malformed', 'not-an-id', 's1'],
      ['unknown', `${store.epoch}:42`, 's1'],
    ];
    for (const [reason, sent, session] of cases) {
      const response = await refuseStaleResume(resume(sent, session), store);
      expect(response?.status, reason).toBe(RESUME_REFUSED_STATUS);
      expect(response?.headers.get('content-type')).toBe('application/json');
      expect(response?.headers.get('cache-control')).toBe('no-store');
      const body: unknown = await response?.json();
      expect(body).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: RESUMPTION_REJECTED_CODE,
          message: expect.stringContaining(`Resume refused (${reason}): Last-Event-ID ${sent}`),
          data: { reason, cursor: sent, serverEpoch: store.epoch },
        },
      });
    }
  });

  it('refuses an evicted cursor the same way', async () => {
    let now = 0;
    const store = createEpochEventStore({ retainMs: 10, now: () => now });
    const view = store.forSession('s1');
    const cursor = await view.storeEvent('A', {});
    now = 100;
    await view.storeEvent('A', {});
    const body = (await (await refuseStaleResume(resume(cursor), store))?.json()) as { error: { data: unknown } };
    expect(body.error.data).toEqual({ reason: 'evicted', cursor, serverEpoch: store.epoch });
  });

  it('lets a resumable cursor, a request without a cursor, a POST and a session-less request through', async () => {
    const { store, cursor } = await setup();
    expect(await refuseStaleResume(resume(cursor), store)).toBeUndefined();
    expect(await refuseStaleResume(resume(undefined), store)).toBeUndefined();
    expect(await refuseStaleResume(resume('bad', 's1', 'POST'), store)).toBeUndefined();
    const anonymous = new Request('http://127.0.0.1/mcp', { headers: { 'last-event-id': 'bad' } });
    expect(await refuseStaleResume(anonymous, store)).toBeUndefined();
    // The app's own session id wins over the header.
    expect((await refuseStaleResume(resume(cursor, 's1'), store, 's2'))?.status).toBe(400);
  });

  it('writes the same refusal on a node:http response', async () => {
    const { store, cursor, foreign } = await setup();
    const res = nodeResponse();
    const headers = { 'last-event-id': foreign, 'mcp-session-id': 's1' };
    expect(await refuseStaleResumeNode({ method: 'GET', headers }, res, store)).toBe(true);
    expect(res.written.status).toBe(400);
    expect(res.written.headers).toMatchObject({ 'content-type': 'application/json', 'cache-control': 'no-store' });
    expect(res.written.headers?.['content-length']).toBe(String(Buffer.byteLength(res.written.body ?? '')));
    const web = await (await refuseStaleResume(resume(foreign), store))?.text();
    expect(res.written.body).toBe(web);
    const through = nodeResponse();
    const ok = { 'last-event-id': cursor, 'mcp-session-id': ['s1'] };
    expect(await refuseStaleResumeNode({ method: 'GET', headers: ok }, through, store)).toBe(false);
    expect(through.written).toEqual({});
  });
});
