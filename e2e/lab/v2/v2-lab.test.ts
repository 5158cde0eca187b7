// Runs in Node (vitest): the v2 lab live. A real TS SDK v2 client pinned to 2026-07-28 against a real
// createMcpHandler server on 127.0.0.1; what the server's wire tap recorded must be the 2026-07-28 shape the spec
// describes, and the core must find exactly what each run's plan says, on the same HAR the fixtures are made of.
import { describe, expect, it } from 'vitest';
import { problemWith, recordV2, V2_PLANS } from './record';

const TIMEOUT = 20_000;

interface HarEntry {
  request: { method: string; headers: { name: string; value: string }[]; postData?: { text: string } };
  response: { status: number; headers: { name: string; value: string }[]; content: { text: string } };
  _streamState: string;
}

const entriesOf = (har: string): HarEntry[] => (JSON.parse(har) as { log: { entries: HarEntry[] } }).log.entries;
const header = (list: { name: string; value: string }[], name: string): string | undefined =>
  list.find((h) => h.name.toLowerCase() === name)?.value;
const rpcOf = (e: HarEntry): { id?: unknown; method?: string; params?: Record<string, unknown> } =>
  JSON.parse(e.request.postData?.text ?? '{}') as { id?: unknown; method?: string; params?: Record<string, unknown> };

const plan = (name: string) => V2_PLANS.find((p) => p.name === name)!;

describe.concurrent('the v2 lab (TS SDK v2, 2026-07-28)', () => {
  it(
    'clean: server/discover first, no session, every POST self-contained, progress as SSE without ids',
    async () => {
      const recorded = await recordV2(plan('v2-clean'));
      expect(recorded.result).toMatchObject({ verdict: 'ok', errors: [] });
      expect(recorded.cuts).toEqual([]);
      expect(problemWith(plan('v2-clean'), recorded)).toBeUndefined();
      const entries = entriesOf(recorded.har);
      expect(entries.map((e) => rpcOf(e).method)).toEqual([
        'server/discover',
        'tools/call',
        'tools/call',
        'tools/call',
        'tools/call',
        'subscriptions/listen',
        'notifications/cancelled',
      ]);
      for (const e of entries) {
        expect(e.request.method).toBe('POST');
        expect(header(e.request.headers, 'mcp-session-id')).toBeUndefined();
        expect(header(e.response.headers, 'mcp-session-id')).toBeUndefined();
        expect(header(e.request.headers, 'mcp-protocol-version')).toBe('2026-07-28');
        expect(
          (rpcOf(e).params?.['_meta'] as Record<string, unknown> | undefined)?.[
            'io.modelcontextprotocol/protocolVersion'
          ],
        ).toBe('2026-07-28');
      }
      const progress = entries[1]!;
      expect(header(progress.response.headers, 'content-type')).toBe('text/event-stream');
      expect(progress.response.content.text).not.toMatch(/^id:/m);
      expect(header(entries[2]!.response.headers, 'content-type')).toBe('application/json');
      // The multi-round trip: input_required with state, then the retry echoing it under a new id.
      const [ask, retry] = [entries[3]!, entries[4]!];
      const state = (JSON.parse(ask.response.content.text) as { result: { requestState: string } }).result.requestState;
      expect(rpcOf(retry).params?.['requestState']).toBe(state);
      expect(rpcOf(retry).id).not.toBe(rpcOf(ask).id);
      // The listen stream: acknowledged first; closed by the client (abort) and then cancelled by a POST.
      const listen = entries[5]!;
      expect(listen.response.content.text.split('\n\n')[0]).toContain('notifications/subscriptions/acknowledged');
      expect(listen._streamState).toBe('aborted');
      expect(entries[6]!.response.status).toBe(202);
    },
    TIMEOUT,
  );

  it(
    'cut, not re-issued: the SDK reports the broken stream, the call times out, nothing is sent again',
    async () => {
      const recorded = await recordV2(plan('v2-cut-not-reissued'));
      expect(recorded.result.verdict).toBe('error');
      expect(recorded.result.errors).toEqual([
        'transport: SSE stream disconnected: TypeError: terminated',
        'Request timed out',
      ]);
      expect(problemWith(plan('v2-cut-not-reissued'), recorded)).toBeUndefined();
      expect(recorded.cuts).toEqual([{ method: 'tools/call', id: 0, bytes: 40 }]);
      const entries = entriesOf(recorded.har);
      expect(entries.map((e) => [rpcOf(e).method, e._streamState])).toEqual([
        ['server/discover', 'complete'],
        ['tools/call', 'failed'],
      ]);
      // Cut 40 bytes into the third event: two whole progress events, then a torn one.
      expect(entries[1]!.response.content.text.split('\n\n').map((b) => b.length > 0)).toEqual([true, true, true]);
    },
    TIMEOUT,
  );

  it(
    'cut, re-issued by the application: the SDK sends it under a new id and it is answered',
    async () => {
      const recorded = await recordV2(plan('v2-cut-reissued'));
      expect(recorded.result).toMatchObject({ verdict: 'ok' });
      expect(problemWith(plan('v2-cut-reissued'), recorded)).toBeUndefined();
      const calls = entriesOf(recorded.har).filter((e) => rpcOf(e).method === 'tools/call');
      expect(calls.map((e) => [rpcOf(e).id, e._streamState])).toEqual([
        [0, 'failed'],
        [1, 'complete'],
      ]);
    },
    TIMEOUT,
  );

  it(
    're-sent below the SDK: the same tools/call bytes under the same id, answered, taken by the waiting call',
    async () => {
      const recorded = await recordV2(plan('v2-reissued-same-id'));
      expect(recorded.result).toMatchObject({ verdict: 'ok' });
      expect(problemWith(plan('v2-reissued-same-id'), recorded)).toBeUndefined();
      const calls = entriesOf(recorded.har).filter((e) => rpcOf(e).method === 'tools/call');
      expect(calls.map((e) => [rpcOf(e).id, e._streamState])).toEqual([
        [0, 'failed'],
        [0, 'complete'],
      ]);
      expect(calls[1]!.request.postData?.text).toBe(calls[0]!.request.postData?.text);
      // The waiting call saw the first two progress notifications twice: the copy's progress is taken as its own.
      expect(recorded.result.steps.at(-1)).toBe('stream_progress ok (progress 1,2,1,2,3,4,5)');
    },
    TIMEOUT,
  );

  it(
    'mixed eras: a 2025 client and a 2026-07-28 client on one endpoint, no session ids, the lost request found',
    async () => {
      const recorded = await recordV2(plan('v2-mixed-eras'));
      expect(problemWith(plan('v2-mixed-eras'), recorded)).toBeUndefined();
      const entries = entriesOf(recorded.har);
      expect(rpcOf(entries[0]!).method).toBe('initialize');
      expect(entries.some((e) => header(e.response.headers, 'mcp-session-id') !== undefined)).toBe(false);
      // The 2025 client's standalone GET: the stateless server has none.
      const get = entries.find((e) => e.request.method === 'GET')!;
      expect([get.response.status, header(get.response.headers, 'allow')]).toEqual([405, 'POST']);
    },
    TIMEOUT,
  );
});
