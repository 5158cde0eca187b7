// Runs in Node (vitest): every lab scenario with the real SDK client through the fault proxy:
// what the client ended with, what the proxy did, and what crossed the wire.
import { describe, expect, it } from 'vitest';
import { bodyText } from './client/recording-fetch';
import { LAB_RECONNECTION } from './client/run-scenario';
import { faults } from './proxy/faults/index';
import { scenarios, type Verdict } from './scenarios';
import { entries, type LabRun, postKind, requestHeader, resumes, runInLab, wireEvents } from './testing';

const TIMEOUT = 10_000;

/** The client ended as expected, and as the scenario list tells the other suites. */
function expectVerdict(run: LabRun, verdict: Verdict): LabRun {
  expect(run.result.verdict, run.result.detail).toBe(verdict);
  expect(run.scenario.clientVerdict).toBe(verdict);
  return run;
}

// Each test starts its own lab on its own ports, so they run side by side.
describe.concurrent('fault lab with the real MCP SDK', () => {
  it(
    'clean: every call intact, nothing applied, no resume',
    async () => {
      const { result, log, connections } = expectVerdict(await runInLab('clean'), 'ok');
      expect(result.calls.map((call) => [call.tool, call.verdict])).toEqual([
        ['stream_progress', 'ok'],
        ['big_result', 'ok'],
        ['ask_user', 'ok'],
      ]);
      expect(result.calls[0]?.progress).toEqual([1, 2, 3, 4, 5]);
      expect(log.map((entry) => entry.action)).toEqual(['scenario']);
      expect(resumes(connections)).toEqual([]);
      expect(connections.every((c) => c.status !== undefined && c.status < 400)).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'cut-mid-event: the client resumes from the last whole event and the torn one comes again whole',
    async () => {
      const { result, log, connections } = expectVerdict(await runInLab('cut-mid-event'), 'ok');
      expect(result.calls[0]?.progress).toEqual([1, 2, 3, 4, 5, 6]);
      const [cut] = entries(log, 'cut');
      expect(cut?.detail).toMatchObject({ tool: 'stream_progress', midEvent: true });
      const torn = String(cut?.detail['tornEventId']);
      const post = connections.find((c) => postKind(c) === 'tools/call');
      expect(post?.end).toBe('network-error');
      // The client holds a partial event: its id line and the start of its JSON.
      expect(bodyText(post!)).toMatch(new RegExp(`id: ${torn}\\ndata: \\{[^\\n]*$`));
      const [resume] = resumes(connections);
      expect(requestHeader(resume!, 'last-event-id')).toBe(cut?.detail['lastCompleteEventId']);
      expect(resume?.status).toBe(200);
      expect(wireEvents(resume!)[0]?.id).toBe(torn);
    },
    TIMEOUT,
  );

  it(
    'replay-boundary: the resume repeats the cursor event byte for byte, and the SDK client hands it on again',
    async () => {
      const { result, log, connections } = expectVerdict(await runInLab('replay-boundary'), 'ok');
      expect(result.calls[0]?.progress).toEqual([1, 2, 2, 3, 4, 5, 6]);
      const [cut] = entries(log, 'cut');
      expect(cut?.detail['midEvent']).toBe(false);
      const [repeat] = entries(log, 'repeat-event');
      const [resume] = resumes(connections);
      const cursor = requestHeader(resume!, 'last-event-id');
      expect(repeat?.detail['eventId']).toBe(cursor);
      const post = connections.find((c) => postKind(c) === 'tools/call');
      const delivered = wireEvents(post!).at(-1);
      const replayed = wireEvents(resume!)[0];
      expect(replayed).toEqual(delivered);
      expect(replayed?.id).toBe(cursor);
    },
    TIMEOUT,
  );

  it(
    'resume-after-error: the SDK client resumes the stream that ended with a JSON-RPC error, with its id',
    async () => {
      const { result, connections } = expectVerdict(await runInLab('resume-after-error'), 'error');
      expect(result.calls[0]?.detail).toContain('URL elicitation required');
      const post = connections.find((c) => postKind(c) === 'tools/call');
      const answer = wireEvents(post!).at(-1);
      expect(answer?.data).toContain('"code":-32042');
      const [resume] = resumes(connections);
      expect(requestHeader(resume!, 'last-event-id')).toBe(answer?.id);
      expect(resume?.status).toBe(200);
      expect(wireEvents(resume!)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'server-close: the origin closes the stream after progress 2; the SDK resumes after retry, or with maxRetries 0 never',
    async () => {
      const resumed = expectVerdict(await runInLab('server-close-resumed'), 'ok');
      expect(resumed.result.calls[0]?.progress).toEqual([1, 2, 3, 4, 5]);
      const post = resumed.connections.find((c) => postKind(c) === 'tools/call');
      expect(post?.end).toBe('complete');
      const [resume] = resumes(resumed.connections);
      expect(requestHeader(resume!, 'last-event-id')).toBe(wireEvents(post!).at(-1)?.id);
      // The client waits the server's retry: 150 ms (in the priming event) before it resumes.
      expect(bodyText(post!)).toMatch(/^id: [^\n]+\nretry: 150\ndata: \n\n/);
      const alone = expectVerdict(await runInLab('server-close-not-resumed'), 'hung');
      expect(resumes(alone.connections)).toEqual([]);
      expect(alone.connections.some((c) => postKind(c) === 'notifications/cancelled')).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'ai-sdk-close-not-resumed: @ai-sdk/mcp reads the closed POST stream to its end, then neither resumes nor cancels',
    async () => {
      const { result, connections } = expectVerdict(await runInLab('ai-sdk-close-not-resumed'), 'hung');
      expect(result.calls.map((call) => [call.tool, call.verdict])).toEqual([['stream_progress', 'hung']]);
      const post = connections.find((c) => postKind(c) === 'tools/call');
      expect(post?.end).toBe('complete');
      // The priming event holds an id and the retry time: everything a client needs to resume.
      expect(bodyText(post!)).toMatch(/^id: [^\n]+\nretry: 150\ndata: \n\n/);
      expect(resumes(connections)).toEqual([]);
      expect(connections.some((c) => postKind(c) === 'notifications/cancelled')).toBe(false);
      // Its era probe came first, then the 2025 initialize that the call went out in.
      expect(
        connections
          .map(postKind)
          .filter((kind) => kind !== undefined)
          .slice(0, 2),
      ).toEqual(['server/discover', 'initialize']);
    },
    TIMEOUT,
  );

  it(
    'evicted-fresh-event: the evicting origin answers the resume with the whole result under a new id',
    async () => {
      const { log, connections } = expectVerdict(await runInLab('evicted-fresh-event'), 'ok');
      const [cut] = entries(log, 'cut');
      expect(cut?.detail).toMatchObject({ tool: 'big_result', midEvent: true });
      const torn = Number(cut?.detail['tornEventId']);
      const [resume] = resumes(connections);
      const cursor = Number(requestHeader(resume!, 'last-event-id'));
      expect(cursor).toBe(torn - 1);
      const [fresh] = wireEvents(resume!);
      expect(Number(fresh?.id)).toBeGreaterThan(torn);
      expect(fresh?.data.length).toBeGreaterThan(1 << 20);
      const post = connections.find((c) => postKind(c) === 'tools/call');
      const tornTail = bodyText(post!).slice(bodyText(post!).lastIndexOf('data: ') + 'data: '.length);
      expect(tornTail.length).toBe(256 * 1024);
      expect(fresh?.data.startsWith(tornTail)).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'epoch-restart-clamp: the new epoch replays its own ids from 1 after a foreign cursor; the call is lost',
    async () => {
      const { result, log, connections } = expectVerdict(await runInLab('epoch-restart-clamp'), 'hung');
      const [restart] = entries(log, 'rolling-restart');
      const oldEpoch = String(restart?.detail['fromEpoch']);
      const newEpoch = String(restart?.detail['toEpoch']);
      expect(newEpoch).not.toBe(oldEpoch);
      const [resume] = resumes(connections);
      expect(requestHeader(resume!, 'last-event-id')?.startsWith(`${oldEpoch}:`)).toBe(true);
      expect(resume?.status).toBe(200);
      const ids = wireEvents(resume!).map((event) => event.id);
      expect(ids[0]).toBe(`${newEpoch}:1`);
      expect(ids.every((id) => id?.startsWith(`${newEpoch}:`))).toBe(true);
      expect(result.clientErrors.some((error) => error.includes('unknown message ID'))).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'epoch-restart-fresh: the new epoch answers the resume with a fresh stream; the call is lost',
    async () => {
      const { log, connections } = expectVerdict(await runInLab('epoch-restart-fresh'), 'hung');
      const [restart] = entries(log, 'rolling-restart');
      const newEpoch = String(restart?.detail['toEpoch']);
      const [resume] = resumes(connections);
      expect(requestHeader(resume!, 'last-event-id')?.startsWith(`${String(restart?.detail['fromEpoch'])}:`)).toBe(
        true,
      );
      const events = wireEvents(resume!);
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((event) => event.id?.startsWith(`${newEpoch}:`))).toBe(true);
      expect(events.some((event) => event.data.includes('"result"'))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'skip-on-resume: the resumed stream starts two ids after the cursor; the client misses progress 3 and 4',
    async () => {
      const { result, log, connections } = expectVerdict(await runInLab('skip-on-resume'), 'ok');
      expect(result.calls[0]?.progress).toEqual([1, 2, 5, 6, 7, 8]);
      expect(entries(log, 'skip-event')).toHaveLength(2);
      const [resume] = resumes(connections);
      const cursor = Number(requestHeader(resume!, 'last-event-id'));
      expect(Number(wireEvents(resume!)[0]?.id)).toBe(cursor + 3);
    },
    TIMEOUT,
  );

  it(
    'resume-409: the SDK client retries the refused cursor until maxRetries, ignoring Retry-After, then hangs',
    async () => {
      const { result, log, connections } = expectVerdict(await runInLab('resume-409'), 'hung');
      const refused = resumes(connections);
      expect(refused).toHaveLength(LAB_RECONNECTION.maxRetries);
      expect(refused.every((c) => c.status === 409)).toBe(true);
      expect(new Set(refused.map((c) => requestHeader(c, 'last-event-id'))).size).toBe(1);
      expect(entries(log, 'reject-resume')).toHaveLength(LAB_RECONNECTION.maxRetries);
      expect(result.clientErrors).toContain(`Maximum reconnection attempts (${LAB_RECONNECTION.maxRetries}) exceeded.`);
      // No new session: the client never initializes again.
      expect(connections.filter((c) => postKind(c) === 'initialize')).toHaveLength(1);
    },
    TIMEOUT,
  );

  it(
    'resume-404: the session is gone; the SDK client retries the cursor and keeps using the session',
    async () => {
      const { result, log, connections } = expectVerdict(await runInLab('resume-404'), 'hung');
      expect(entries(log, 'drop-session')[0]?.detail['dropped']).toBe(true);
      const refused = resumes(connections);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      expect(refused.every((c) => c.status === 404)).toBe(true);
      expect(result.probe?.ok).toBe(false);
      expect(result.probe?.detail).toContain('Session not found');
      const sessionId = result.sessionId;
      const later = connections.filter((c) => c.method === 'POST' && c.startTime >= refused[0]!.startTime);
      expect(later.length).toBeGreaterThan(0);
      expect(later.every((c) => requestHeader(c, 'mcp-session-id') === sessionId && c.status === 404)).toBe(true);
      expect(connections.filter((c) => postKind(c) === 'initialize')).toHaveLength(1);
    },
    TIMEOUT,
  );

  it(
    'orphaned-elicitation: the stream is cut after the elicitation request and the answer never reaches a server',
    async () => {
      const { log, connections } = expectVerdict(await runInLab('orphaned-elicitation'), 'hung');
      const post = connections.find((c) => postKind(c) === 'tools/call');
      const lastEvent = wireEvents(post!).at(-1);
      expect(JSON.parse(lastEvent?.data ?? '{}')).toMatchObject({ method: 'elicitation/create' });
      expect(entries(log, 'drop-session')).toHaveLength(1);
      const answer = connections.find((c) => postKind(c) === 'response');
      expect(answer?.status).toBe(404);
      expect(JSON.parse(answer?.requestBody ?? '{}')).toMatchObject({ result: { action: 'accept' } });
    },
    TIMEOUT,
  );

  it(
    'legacy-sse: the 2024-11-05 transport with an old client: endpoint event, POST /messages, version 2024-11-05',
    async () => {
      const { connections } = expectVerdict(await runInLab('legacy-sse'), 'ok');
      const stream = connections.find((c) => c.method === 'GET' && new URL(c.url).pathname === '/sse');
      const events = wireEvents(stream!);
      expect(events[0]?.event).toBe('endpoint');
      expect(events[0]?.data).toMatch(/^\/messages\?sessionId=/);
      const init = events.find((event) => event.data.includes('"protocolVersion"'));
      expect(JSON.parse(init?.data ?? '{}')).toMatchObject({ result: { protocolVersion: '2024-11-05' } });
      expect(connections.filter((c) => c.method === 'POST').every((c) => new URL(c.url).pathname === '/messages')).toBe(
        true,
      );
      expect(events.every((event) => event.id === undefined)).toBe(true);
    },
    TIMEOUT,
  );

  it('scenario names are unique and each has its fault file', () => {
    expect(new Set(scenarios.map((s) => s.name)).size).toBe(scenarios.length);
    for (const scenario of scenarios) expect(faults[scenario.name].name).toBe(scenario.name);
  });
});
