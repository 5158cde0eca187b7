// Runs in Node (vitest): `mcp-stream-inspector proxy` in front of the lab's real SDK server, with the real SDK client
// (StreamableHTTPClientTransport) through it: unarmed it changes nothing the client receives; each fault strikes
// once where it says, the client's own resume logic runs, and `analyze` finds in the recording what the fault
// provokes. The last tests spawn the real bin.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuiltCli, PACKAGE_ROOT } from '../../src/cli/built-cli.fixture';
import type { ConnectionRecord } from '../../src/core/capture/model';
import { FAULT_HEADER } from '../../src/proxy/forward';
import { bodyText, recordingFetch, requestHeader } from './client/recording-fetch';
import { runScenario } from './client/run-scenario';
import {
  analyzedRules,
  clientScenario,
  RECORDINGS,
  runThroughProxy,
  startCliProxy,
  startOrigin,
  type ThroughProxy,
} from './proxy-run';
import type { LabIdScheme, ToolCall } from './scenarios';
import { MCP_PATH } from './server/instance';
import { postKind, resumes, wireEvents } from './testing';

const TIMEOUT = 20_000;
const progress = (count: number): ToolCall => ({ tool: 'stream_progress', args: { count, delayMs: 40 } });
const TWO_CALLS = [progress(4), progress(4)];

/** A fresh lab origin, the scenario's client through a fresh proxy with `args`, the recording analysed. */
async function through(
  idScheme: LabIdScheme,
  args: string[],
  name: string,
  calls: ToolCall[] = [progress(5)],
  scenario: Parameters<typeof clientScenario>[0] = 'skip-on-resume',
): Promise<ThroughProxy> {
  const origin = await startOrigin(idScheme);
  try {
    return await runThroughProxy(origin, clientScenario(scenario, calls), args, `${name}.json`);
  } finally {
    await origin.close();
  }
}

const toolCalls = (connections: ConnectionRecord[]) => connections.filter((c) => postKind(c) === 'tools/call');
const strikes = (run: ThroughProxy, action: string) => run.faults.filter((line) => line.includes(`  ${action}  `));

/** What a client receives from one exchange, minus what differs between two servers by design (the session id). */
function received(c: ConnectionRecord): string {
  const kept = (c.responseHeaders ?? [])
    .map((h) => h.name.toLowerCase())
    .filter((name) => !['date', 'connection', 'keep-alive', 'transfer-encoding', 'mcp-session-id'].includes(name))
    .sort();
  return JSON.stringify([c.method, c.requestBody ?? '', c.status, kept, c.end, bodyText(c)]);
}

describe.concurrent('mcp-stream-inspector proxy with the real MCP SDK', () => {
  it(
    'unarmed: the client receives byte for byte what it receives straight from the server',
    async () => {
      const calls: ToolCall[] = [
        progress(4),
        { tool: 'big_result', args: { sizeBytes: 256 * 1024 } },
        { tool: 'ask_user', args: { question: 'Favourite colour?' } },
      ];
      const scenario = clientScenario('clean', calls);
      // Two fresh origins with integer ids serve the same bytes to the same client calls.
      const direct = await startOrigin('integer');
      const recorder = recordingFetch();
      try {
        const result = await runScenario(scenario, {
          baseUrl: direct.url,
          fetch: recorder.fetch,
          selectScenario: false,
        });
        expect(result.verdict, result.detail).toBe('ok');
      } finally {
        await direct.close();
      }
      const proxied = await through('integer', [], 'unarmed', calls, 'clean');
      expect(proxied.result.verdict, proxied.result.detail).toBe('ok');
      expect(proxied.faults).toEqual([]);
      expect(proxied.rules).toEqual([]);
      expect(proxied.connections.map(received).sort()).toEqual(recorder.connections.map(received).sort());
      expect(proxied.connections.some((c) => bodyText(c).length > 256 * 1024)).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'HTTP+SSE (2024-11-05): the GET /sse stream and the POSTs to its endpoint pass through; analyze finds nothing',
    async () => {
      const calls: ToolCall[] = [progress(3), { tool: 'ask_user', args: { question: 'Favourite colour?' } }];
      const run = await through('none', [], 'legacy-sse', calls, 'legacy-sse');
      expect(run.result.verdict, run.result.detail).toBe('ok');
      const stream = run.connections.find((c) => c.method === 'GET' && new URL(c.url).pathname === '/sse');
      expect(wireEvents(stream!)[0]).toMatchObject({ event: 'endpoint' });
      expect(run.connections.filter((c) => new URL(c.url).pathname === '/messages').length).toBeGreaterThan(2);
      expect(run.rules).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'HTTP+SSE (2024-11-05) cut-mid-event: the GET /sse stream carrying the tools/call answer is torn; the request is lost',
    async () => {
      const run = await through('none', ['--fault', 'cut-mid-event'], 'legacy-cut-mid', [progress(4)], 'legacy-sse');
      // The SDK's SSEClientTransport reports the SSE error, does not reconnect, and the call waits for its timeout.
      expect(run.result.calls.map((c) => c.verdict)).toEqual(['hung']);
      expect(run.result.clientErrors.join('\n')).toMatch(/SSE error/);
      expect(strikes(run, 'cut')).toHaveLength(1);
      expect(run.faults[0]).toMatch(/method=tools\/call tool=stream_progress midEvent=true /);
      const stream = run.connections.find((c) => c.method === 'GET' && new URL(c.url).pathname === '/sse');
      // The stream is torn inside the first event with data after the POST: 60 bytes into its JSON.
      expect(bodyText(stream!)).toMatch(/\nevent: message\ndata: \{[^\n]{59}$/);
      expect(wireEvents(stream!)[0]).toMatchObject({ event: 'endpoint' });
      // The POSTs pass untouched: accepted, the answer left to the stream. (The client's late cancellation is its
      // own abort at the timeout.)
      expect(toolCalls(run.connections).map((c) => c.status)).toEqual([202]);
      expect(run.rules).toEqual(['legacy-stream-lost']);
    },
    TIMEOUT,
  );

  it(
    'cut-mid-event: strikes the first tools/call stream once, inside its first event with data; the client resumes',
    async () => {
      const run = await through('sdk-stream', ['--fault', 'cut-mid-event'], 'cut-mid-event', TWO_CALLS);
      expect(run.result.calls.map((c) => [c.verdict, c.progress])).toEqual([
        ['ok', [1, 2, 3, 4]],
        ['ok', [1, 2, 3, 4]],
      ]);
      expect(strikes(run, 'cut')).toHaveLength(1);
      expect(run.faults[0]).toMatch(/midEvent=true .*bytesIntoFrame=\d+ /);
      const [first, second] = toolCalls(run.connections);
      expect(first?.end).toBe('network-error');
      // The second call's stream is not struck: it ends as the client ends it, with its answer in it.
      expect(second?.end).not.toBe('network-error');
      expect(bodyText(second!)).toContain('"result"');
      // The client holds the torn event's id line and 60 bytes of its JSON; it resumes from the priming event.
      expect(bodyText(first!)).toMatch(/\nid: [^\n]+\ndata: \{[^\n]{59}$/);
      expect(resumes(run.connections)).toHaveLength(1);
      // Its body: the priming event, then the torn one: the first event that carries data.
      expect(wireEvents(first!).map((e) => e.data === '')).toEqual([true, false]);
      const cursor = /lastCompleteEventId=(\S+)/.exec(run.faults[0] ?? '')?.[1];
      expect(cursor).toBe(wireEvents(first!)[0]?.id);
      expect(requestHeader(resumes(run.connections)[0]!, 'last-event-id')).toBe(cursor);
      expect(run.connections.find((c) => postKind(c) === 'initialize')?.end).toBe('complete');
      expect(run.rules).toEqual(['torn-event-reconnect']);
      expect(run.code).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'cut-at-boundary@every: cuts every tools/call stream after its first event; each is resumed and answered',
    async () => {
      const run = await through('integer', ['--fault', 'cut-at-boundary@every'], 'cut-every', TWO_CALLS);
      expect(run.result.verdict, run.result.detail).toBe('ok');
      expect(strikes(run, 'cut')).toHaveLength(2);
      expect(toolCalls(run.connections).map((c) => c.end)).toEqual(['network-error', 'network-error']);
      expect(resumes(run.connections)).toHaveLength(2);
      expect(run.rules).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'drop-first-replayed: the first resume after the cut loses its first event; analyze finds resume-id-gap',
    async () => {
      const args = ['--fault', 'cut-at-boundary:2', '--fault', 'drop-first-replayed'];
      const run = await through('integer', args, 'drop-first-replayed');
      expect(run.result.calls[0]?.progress).toEqual([1, 2, 4, 5]);
      expect(strikes(run, 'skip-event')).toHaveLength(1);
      expect(run.rules).toEqual(['resume-id-gap']);
    },
    TIMEOUT,
  );

  it(
    'replay-cursor: the resume starts with the cursor event again; analyze finds the duplicate',
    async () => {
      const args = ['--fault', 'cut-at-boundary:2', '--fault', 'replay-cursor'];
      const run = await through('sdk-stream', args, 'replay-cursor');
      expect(run.result.calls[0]?.progress).toEqual([1, 2, 2, 3, 4, 5]);
      const [resume] = resumes(run.connections);
      expect(wireEvents(resume!)[0]?.id).toBe(requestHeader(resume!, 'last-event-id'));
      expect(strikes(run, 'repeat-event')).toHaveLength(1);
      expect(run.rules).toEqual(['replayed-event-duplicate']);
    },
    TIMEOUT,
  );

  for (const status of [404, 409, 400]) {
    it(
      `resume-status:${status}: the first resume is refused without reaching the server; the client's retry succeeds`,
      async () => {
        const args = ['--fault', 'cut-at-boundary:2', '--fault', `resume-status:${status}`];
        const run = await through('integer', args, `resume-status-${status}`);
        expect(run.result.verdict, run.result.detail).toBe('ok');
        expect(resumes(run.connections).map((c) => c.status)).toEqual([status, 200]);
        expect(resumes(run.connections)[0]?.responseHeaders).toContainEqual({
          name: FAULT_HEADER,
          value: `resume-status:${status}`,
        });
        expect(strikes(run, 'reject-resume')).toHaveLength(1);
        expect(run.rules).toEqual(['resumption-rejected']);
      },
      TIMEOUT,
    );
  }

  it(
    'resume-status:409@every: every resume is refused; the call is lost and analyze says so',
    async () => {
      const args = ['--fault', 'cut-at-boundary:2', '--fault', 'resume-status:409@every'];
      const run = await through('integer', args, 'resume-status-every');
      expect(run.result.verdict).toBe('hung');
      expect(resumes(run.connections).every((c) => c.status === 409)).toBe(true);
      expect(strikes(run, 'reject-resume').length).toBe(resumes(run.connections).length);
      expect(run.rules).toEqual(['resumption-rejected', 'stale-cursor-retry', 'unanswered-after-disconnect']);
    },
    TIMEOUT,
  );

  it(
    'resume-silent: the resume gets 200 with keep-alives only; the call hangs and analyze finds resume-not-honored',
    async () => {
      const args = ['--fault', 'cut-at-boundary:2', '--fault', 'resume-silent'];
      const run = await through('integer', args, 'resume-silent');
      expect(run.result.verdict).toBe('hung');
      const [resume] = resumes(run.connections);
      expect(resume?.status).toBe(200);
      expect(wireEvents(resume!)).toEqual([]);
      expect(bodyText(resume!)).toMatch(/^(: keep-alive\n\n)+$/);
      expect(run.rules).toEqual(['resume-not-honored']);
    },
    TIMEOUT,
  );

  it(
    'close-resumes: every resume of a finished stream ends at once; the client resumes again at a steady rate',
    async () => {
      // The SDK 1.32 client resumes a stream that ended with an error answer, and schedules the resume of each stream
      // that then ends cleanly as attempt 0 again: maxRetries never runs out. The application keeps the client 3 s.
      const origin = await startOrigin('sdk-stream');
      const scenario = { ...clientScenario('resume-after-error'), lingerMs: 3000 };
      let run: ThroughProxy;
      try {
        run = await runThroughProxy(origin, scenario, ['--fault', 'close-resumes'], 'close-resumes.json');
      } finally {
        await origin.close();
      }
      expect(run.result.verdict).toBe('error');
      const all = resumes(run.connections);
      expect(all.length).toBeGreaterThanOrEqual(10);
      // Each resume gets one priming event after its cursor and ends; the next resumes from that priming id.
      const primings = all.map((resume) => [resume.status, resume.end, wireEvents(resume).map((e) => e.data)]);
      expect(primings).toEqual(all.map(() => [200, 'complete', ['']]));
      const cursors = all.slice(1).map((resume) => requestHeader(resume, 'last-event-id'));
      expect(cursors).toEqual(all.slice(0, -1).map((resume) => wireEvents(resume)[0]?.id));
      expect(strikes(run, 'close-resume')).toHaveLength(all.length);
      expect(run.rules).toEqual(['reconnect-storm', 'resume-after-answer']);
    },
    TIMEOUT,
  );

  it(
    'cut-mid-event then restart-epoch: the resumed stream comes under a new epoch; analyze finds epoch-mismatch',
    async () => {
      const args = ['--fault', 'cut-mid-event:60', '--fault', 'restart-epoch:b0b0'];
      const run = await through('epoch-seq', args, 'restart-epoch');
      const [resume] = resumes(run.connections);
      expect(requestHeader(resume!, 'last-event-id')).not.toMatch(/^b0b0:/);
      expect(wireEvents(resume!).map((e) => e.id)).toEqual(wireEvents(resume!).map((_, i) => `b0b0:${i + 1}`));
      expect(run.rules).toEqual(['epoch-mismatch', 'resume-not-honored', 'torn-event-reconnect']);
    },
    TIMEOUT,
  );

  it(
    'delay: holds the first tools/call once, or every one with @every; nothing else changes',
    async () => {
      const once = await through('integer', ['--fault', 'delay:30'], 'delay', TWO_CALLS);
      const every = await through('integer', ['--fault', 'delay:30@every'], 'delay-every', TWO_CALLS);
      for (const run of [once, every]) {
        expect(run.result.verdict, run.result.detail).toBe('ok');
        expect(run.rules).toEqual([]);
      }
      expect(strikes(once, 'delay')).toHaveLength(1);
      expect(strikes(every, 'delay')).toHaveLength(2);
    },
    TIMEOUT,
  );

  it('refuses a bad fault spec with one precise line and exit 2, before listening', async () => {
    const origin = await startOrigin('integer');
    try {
      const proxy = await startCliProxy(origin, ['--fault', 'cut-mid-event:sixty']);
      expect(await proxy.stop()).toBe(2);
      expect(proxy.lines()).toEqual([]);
      expect(proxy.err()).toBe(
        'mcp-stream-inspector: --fault "cut-mid-event:sixty": BYTES "sixty" must be a whole number >= 0\n' +
          'Run "mcp-stream-inspector --help" for usage.\n',
      );
    } finally {
      await origin.close();
    }
  });
  it('says so and exits 2 when it cannot listen (the port is taken)', async () => {
    const origin = await startOrigin('integer');
    try {
      const taken = new URL(origin.url).port;
      const proxy = await startCliProxy(origin, ['--port', taken]);
      expect(await proxy.stop()).toBe(2);
      expect(proxy.lines()).toEqual([]);
      expect(proxy.err()).toMatch(
        new RegExp(`^mcp-stream-inspector: cannot listen on 127\\.0\\.0\\.1:${taken}: .*EADDRINUSE`),
      );
    } finally {
      await origin.close();
    }
  });
});

describe('node bin/mcp-stream-inspector.js proxy', () => {
  beforeAll(ensureBuiltCli, 120_000);

  it(
    'prints the URL first (--port 0, same path), and on SIGTERM writes a HAR that analyze reads',
    async () => {
      const origin = await startOrigin('sdk-stream');
      mkdirSync(RECORDINGS, { recursive: true });
      const har = join(RECORDINGS, 'bin.har');
      rmSync(har, { force: true });
      const args = ['proxy', `${origin.url}${MCP_PATH}`, '--port', '0', '--fault', 'cut-mid-event', '--record', har];
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd: PACKAGE_ROOT,
        env: { ...process.env, NO_COLOR: '1' },
      });
      try {
        const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
        const first = (await lines.next()).value as string;
        expect(first).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
        const result = await runScenario(clientScenario('cut-mid-event', [progress(4)]), {
          baseUrl: new URL(first).origin,
          selectScenario: false,
        });
        expect(result.verdict, result.detail).toBe('ok');
        const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        expect(await exit).toBe(0);
        expect(existsSync(har)).toBe(true);
        expect(await analyzedRules(har)).toEqual(['torn-event-reconnect']);
      } finally {
        child.kill();
        await origin.close();
      }
    },
    TIMEOUT,
  );
});
