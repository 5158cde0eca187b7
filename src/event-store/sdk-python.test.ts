// Runs in Node (vitest): the real Python `mcp` 2.3.0 client (e2e/lab/python/resume_client.py, in the lab's venv)
// against the guarded TypeScript SDK 1.32 server of sdk-app.fixture.ts, the product's fault proxy cutting the stream
// while the server restarts; the proxy's recording is what crossed the wire, and the core analyses it. Skipped, with
// the reason in its name, where the venv cannot be made; fails instead where MCP_LAB_PYTHON_REQUIRED=1 (.ci/run).
import { afterEach, describe, expect, it } from 'vitest';
import { runPythonResumeClient } from '../../e2e/lab/python/peers';
import { pythonForTests } from '../../e2e/lab/python/venv';
import type { ConnectionRecord } from '../core/capture/model';
import { analyze } from '../core/index';
import { createEpochEventStore } from './memory';
import { RESUMPTION_REJECTED_CODE } from './refusal';
import { type GuardedApp, startGuardedApp } from './sdk-app.fixture';
import { bodyText, type Proxied, resumes, startProxy, until } from './sdk-client.fixture';

const CALL = { count: 10, delayMs: 30, bytes: 64 * 1024 };
const steps = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
/** Generous: importing the Python SDK takes seconds on a loaded 2-core machine; only a hang reaches it. */
const TIMEOUT = 90_000;

const env = pythonForTests();
const python = env.ok ? env.python : '';

let app: GuardedApp | undefined;
let proxied: Proxied | undefined;

afterEach(async () => {
  await proxied?.proxy.close();
  await app?.close();
  app = proxied = undefined;
});

const header = (c: ConnectionRecord, name: string) =>
  c.requestHeaders.find((h) => h.name.toLowerCase() === name)?.value;

/** One exchange as `METHOD what status`: the JSON-RPC method of a POST, `resume` or `stream` for a GET. */
function exchange(c: ConnectionRecord): string {
  const what =
    c.method === 'POST'
      ? (JSON.parse(c.requestBody ?? '{}') as { method?: string }).method
      : c.method === 'GET'
        ? header(c, 'last-event-id') === undefined
          ? 'stream'
          : 'resume'
        : undefined;
  return [c.method, what, c.status].filter((part) => part !== undefined).join(' ');
}

describe.skipIf(!env.ok)(
  `the Python mcp 2.3 client against the guarded SDK 1.32 server${env.ok ? '' : ` (skipped: ${env.reason})`}`,
  () => {
    it(
      'after a restart (new store: new epoch; the session restored) its resume is refused as foreign-epoch, never a 200',
      async () => {
        const before = createEpochEventStore();
        const after = createEpochEventStore();
        const started = await startGuardedApp({ store: before });
        app = started;
        const onCut = () => void started.restart(after, { drain: true });
        proxied = await startProxy(started.url, ['cut-at-boundary:2'], onCut);
        const recorder = proxied.recorder;
        const run = await runPythonResumeClient(python, proxied.proxy.url, CALL);
        await until(() => recorder.capture().connections.every((c) => c.end !== 'open'), 'exchanges to end');
        const capture = recorder.capture();
        expect(proxied.faults.map((f) => f.action)).toEqual(['cut']);

        // What the Python application saw: the first call failed after progress 1, 2 (the SDK's generic give-up: the
        // refusal's reason never reaches the app); the same call in a new session got every step and the result the
        // new process produced, byte for byte. The old process had finished the first call (a graceful restart), into
        // the old store: that answer is lost with it.
        expect(run.errors).toEqual([]);
        expect(run.protocolVersion).toBe('2025-11-25');
        expect(run.calls).toEqual([
          { progress: [1, 2], error: 'MCPError: SSE stream ended and reconnection attempts were exhausted' },
          { progress: steps(CALL.count), text: expect.any(String) },
        ]);
        expect(started.produced).toHaveLength(2);
        const produced = JSON.parse(started.produced[1]!) as { content: { text: string }[] };
        expect(run.calls[1]?.text).toBe(produced.content[0]?.text);

        // On the wire, in order. The first session: the SDK's 2026-07-28 probe refused, initialize, the call whose
        // stream the proxy cut, two resumes, both refused, then the app's DELETE. The second session: the same
        // handshake, the call answered (the SDK then lists tools for the result's schema), DELETE. Plain GETs are the
        // SDK's standalone stream: cut by the restart, it reconnects (without Last-Event-ID: the server's standalone
        // stream has no ids) after a fixed 1 s, before or after the app's DELETE; the order of that one is left out.
        const sessions = [...new Set(capture.connections.map((c) => header(c, 'mcp-session-id')))].filter(Boolean);
        expect(sessions).toHaveLength(2);
        const cutAt = capture.connections.findIndex((c) => c.method === 'POST' && c.end === 'network-error');
        const deleteAt = capture.connections.findIndex((c) => c.method === 'DELETE');
        const [first, second] = [capture.connections.slice(0, deleteAt + 1), capture.connections.slice(deleteAt + 1)];
        expect(first.filter((c) => exchange(c) !== 'GET stream 200').map(exchange)).toEqual([
          'POST server/discover 400',
          'POST initialize 200',
          'POST notifications/initialized 202',
          'POST tools/call 200',
          'GET resume 400',
          'GET resume 400',
          'DELETE 200',
        ]);
        expect(second.filter((c) => c.method !== 'GET').map(exchange)).toEqual([
          'POST server/discover 400',
          'POST initialize 200',
          'POST notifications/initialized 202',
          'POST tools/call 200',
          'POST tools/list 200',
          'DELETE 200',
        ]);
        expect(second.filter((c) => c.method === 'POST').every((c) => c.end === 'complete')).toBe(true);
        expect(first[cutAt]?.end).toBe('network-error');

        // Each resume carries the id of the last event the cut stream delivered (progress 2), of the old epoch, and
        // is refused explicitly: 400 with the JSON-RPC error naming foreign-epoch and the new process's epoch.
        const cutIds = [...bodyText(first[cutAt]!).matchAll(/^id: ?(.*)$/gm)].map((m) => m[1]);
        const cursor = cutIds.at(-1);
        expect(cursor?.startsWith(`${before.epoch}:`)).toBe(true);
        const refused = resumes(capture.connections);
        expect(refused.map((c) => [c.status, header(c, 'last-event-id')])).toEqual([
          [400, cursor],
          [400, cursor],
        ]);
        for (const c of refused) {
          expect(c.responseHeaders?.find((h) => h.name.toLowerCase() === 'content-type')?.value).toMatch(
            /^application\/json/,
          );
          expect(JSON.parse(bodyText(c))).toEqual({
            jsonrpc: '2.0',
            id: null,
            error: {
              code: RESUMPTION_REJECTED_CODE,
              message: expect.stringContaining('foreign-epoch'),
              data: { reason: 'foreign-epoch', cursor, serverEpoch: after.epoch },
            },
          });
        }

        // The core on the recording. Each refusal is resumption-rejected (info). The rest is about the Python client:
        // - stale-cursor-retry (warning): mcp 2.3 treats the 400 as a failed reconnect and sends the same refused
        //   cursor once more (MAX_RECONNECTION_ATTEMPTS = 2) before it fails the call; a true finding about the SDK.
        // - version-fallback (info), once per session: the client's default mode="auto" probes 2026-07-28 with
        //   server/discover, the 2025-era server answers 400, the client falls back to initialize.
        // - nothing about the lost call (unanswered-after-disconnect, session-not-reinitialized): the app closed the
        //   session and made the call again in a new one, which is the recovery those rules accept.
        // - retry-ignored (warning) only when the standalone GET reconnected before the app's DELETE (the 1 s race
        //   above): that stream ends with the session and the client does not reconnect it; if so, it names that GET.
        const findings = analyze(capture).findings;
        const standalone = first.filter((c) => exchange(c) === 'GET stream 200').slice(1);
        const expected = [
          ['resumption-rejected', 'info', refused[0]?.id],
          ['resumption-rejected', 'info', refused[1]?.id],
          ['stale-cursor-retry', 'warning', refused[1]?.id],
          ['version-fallback', 'info', undefined],
          ['version-fallback', 'info', undefined],
          ...standalone.map((c) => ['retry-ignored', 'warning', c.id]),
        ];
        const key = (row: (string | undefined)[]) => row.join(' ');
        const seen = findings.map((f) => [
          f.rule,
          f.severity,
          f.rule === 'version-fallback' ? undefined : f.connectionId,
        ]);
        expect(seen.map(key).sort()).toEqual(expected.map(key).sort());
        expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
      },
      TIMEOUT,
    );
  },
);
