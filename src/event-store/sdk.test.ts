// Runs in Node (vitest): the memory store in a real SDK 1.32 server (McpServer + StreamableHTTPServerTransport), the
// real SDK 1.32 client, the product's fault proxy cutting the stream, and the core's analysis of what the client got.
import { afterEach, describe, expect, it } from 'vitest';
import { createEpochEventStore } from './memory';
import { RESUMPTION_REJECTED_CODE } from './refusal';
import { type GuardedApp, startGuardedApp } from './sdk-app.fixture';
import { bodyText, callThrough, type Proxied, resumes, serious, startProxy } from './sdk-client.fixture';

const CALL = { count: 10, delayMs: 30, bytes: 64 * 1024 };
const steps = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

let app: GuardedApp | undefined;
let proxied: Proxied | undefined;

afterEach(async () => {
  await proxied?.proxy.close();
  await app?.close();
  app = proxied = undefined;
});

describe('the memory store in a real SDK 1.32 server', () => {
  it('resumes a cut stream with exactly the missing events: zero loss, zero duplicates, the same result bytes', async () => {
    app = await startGuardedApp({ store: createEpochEventStore() });
    proxied = await startProxy(app.url, ['cut-at-boundary:3']);
    const run = await callThrough(proxied, CALL);
    expect(run.faults.map((f) => f.action)).toContain('cut');
    expect(run.progress).toEqual(steps(CALL.count));
    expect(run.result).toBe(app.produced[0]);
    const [resume] = resumes(run.connections);
    expect(resume?.status).toBe(200);
    expect(run.findings.map((f) => f.rule)).toEqual([]);
  });

  it('resumes a stream cut inside an event: the torn event is replayed whole', async () => {
    app = await startGuardedApp({ store: createEpochEventStore() });
    proxied = await startProxy(app.url, ['cut-mid-event:30']);
    const run = await callThrough(proxied, CALL);
    expect(run.faults.map((f) => f.action)).toContain('cut');
    expect(run.progress).toEqual(steps(CALL.count));
    expect(run.result).toBe(app.produced[0]);
    // The inspector warns of the client resuming while holding a partial event (the proxy's cut), nothing else.
    expect(serious(run.findings).map((f) => f.rule)).toEqual(['torn-event-reconnect']);
  });

  it('after a restart (new store: new epoch; the session restored) refuses the old cursor as foreign-epoch', async () => {
    const before = createEpochEventStore();
    const after = createEpochEventStore();
    const started = await startGuardedApp({ store: before });
    app = started;
    proxied = await startProxy(started.url, ['cut-at-boundary:3'], () => void started.restart(after, { drain: true }));
    const run = await callThrough(proxied, CALL, (connections) => resumes(connections).some((c) => c.end !== 'open'));
    expect(run.result).toBeUndefined();
    expect(run.progress).toEqual([1, 2, 3]);
    const refused = resumes(run.connections);
    // One resume, refused: never a 200 that replays the new epoch's events or stays silent.
    expect(refused.map((c) => c.status)).toEqual([400]);
    const cursor = refused[0]?.requestHeaders.find((h) => h.name.toLowerCase() === 'last-event-id')?.value;
    expect(cursor?.startsWith(`${before.epoch}:`)).toBe(true);
    expect(JSON.parse(bodyText(refused[0]!))).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: RESUMPTION_REJECTED_CODE,
        message: expect.stringContaining('foreign-epoch'),
        data: { reason: 'foreign-epoch', cursor, serverEpoch: after.epoch },
      },
    });
    expect(run.clientErrors.join('\n')).toMatch(/Bad Request/);
    // What the report prescribes next: a new session, the call issued again; it completes on the new epoch.
    const again = await callThrough(proxied, CALL);
    expect(again.progress).toEqual(steps(CALL.count));
    expect(again.result).toBe(started.produced.at(-1));
    // The inspector shows the refusal as resumption-rejected (info), and nothing at warning or error: the request
    // the restart lost was made again in a new session (unanswered-after-disconnect accepts that recovery).
    expect(again.findings.filter((f) => f.rule === 'resumption-rejected').map((f) => f.severity)).toEqual(['info']);
    expect(serious(again.findings)).toEqual([]);
  });

  it('refuses on its own when the app skips the pre-check: the SDK answers 400, never a 200', async () => {
    const started = await startGuardedApp({ store: createEpochEventStore(), guard: false });
    app = started;
    const onCut = () => void started.restart(createEpochEventStore(), { drain: true });
    proxied = await startProxy(started.url, ['cut-at-boundary:3'], onCut);
    const run = await callThrough(proxied, CALL, (connections) => resumes(connections).some((c) => c.end !== 'open'));
    const refused = resumes(run.connections);
    expect(refused.map((c) => c.status)).toEqual([400]);
    expect(JSON.parse(bodyText(refused[0]!))).toMatchObject({ error: { message: 'Invalid event ID format' } });
  });
});
