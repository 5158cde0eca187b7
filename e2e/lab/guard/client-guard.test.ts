// Runs in Node (vitest): the product's client guard (src/client-guard/) in front of the real MCP SDK clients (1.32,
// v2 and @ai-sdk/mcp), through the lab's faults and the CLI proxy's. Each hazard the unguarded client suffers (the
// controls: lab.test.ts and cli-proxy.test.ts run the same faults without the guard) ends here intact, or in a
// ResumptionRejectedError that fails the waiting call at once, a re-initialize, and the call made again.
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { createClientGuard, type GuardFinding, isResumptionRejected } from '../../../src/client-guard/index';
import { analyze } from '../../../src/core/index';
import type { RunResult } from '../client/run-scenario';
import { clientScenario, runThroughProxy, startCliProxy, startOrigin } from '../proxy-run';
import { findScenario, type LabIdScheme, scenarioNames, type ScenarioName, type ToolCall } from '../scenarios';
import { runInLab } from '../testing';
import { connect, cutProgress, progressCall } from '../v2/runs';
import { startV2Lab } from '../v2/server';

const TIMEOUT = 20_000;

interface Guarded {
  /** What the client ends with behind the guard. */
  verdict: RunResult['verdict'];
  /** The guard's interventions by rule (`ClientGuard.counts`). */
  counts: Record<string, number>;
  /** The rule of the refused resume, when the guard refused one. */
  refused?: string;
}

const ok = (counts: Record<string, number> = {}): Guarded => ({ verdict: 'ok', counts });
const refused = (rule: string, counts: Record<string, number> = {}): Guarded => ({
  verdict: 'ok',
  counts: { ...counts, [rule]: 1 },
  refused: rule,
});

/** Per lab scenario, what the guarded SDK client ends with (scenarios.ts says what it ends with unguarded). */
const LAB: Record<ScenarioName, Guarded> = {
  clean: ok(),
  'cut-mid-event': ok({ 'torn-event-reconnect': 1 }),
  'replay-boundary': ok({ 'replayed-event-duplicate': 1 }),
  'evicted-fresh-event': refused('resume-id-gap', { 'torn-event-reconnect': 1 }),
  'epoch-restart-clamp': refused('epoch-mismatch'),
  'epoch-restart-fresh': refused('epoch-mismatch'),
  'skip-on-resume': refused('resume-id-gap'),
  'resume-409': refused('resumption-rejected'),
  // The server forgot the session: its 404 ends the session at once (the spec's "start a new session").
  'resume-404': refused('session-not-reinitialized'),
  'orphaned-elicitation': refused('session-not-reinitialized'),
  'legacy-sse': ok(),
  // The tool answers a JSON-RPC error: that is the call's own answer, with or without the guard.
  'resume-after-error': { verdict: 'error', counts: {} },
  'server-close-resumed': ok({ 'post-stream-not-resumed': 1 }),
  'server-close-not-resumed': ok({ 'post-stream-not-resumed': 1 }),
  'ai-sdk-close-not-resumed': ok({ 'post-stream-not-resumed': 1 }),
};

/** What the SDK client says when it is handed an answer it never asked for, or a text that is not whole JSON. */
const FOREIGN_OR_TORN = /unknown message ID|Unexpected token|Unexpected end of JSON|is not valid JSON/;

/** The client handed on each progress value once, in order. */
function expectProgressOnce(run: RunResult): void {
  for (const call of run.calls) expect([...call.progress].sort((a, b) => a - b)).toEqual([...new Set(call.progress)]);
}

/**
 * The refusal expected (none when `rule` is undefined): it failed the waiting call at once (the SDK's "Connection
 * closed" from recover), never by its timeout, and the call was made again in the new session.
 */
function expectRefusal(run: RunResult, rule: string | undefined): void {
  const guard = run.guard;
  expect(guard?.rejections.map((r) => r.rule)).toEqual(rule ? [rule] : []);
  expect(guard?.retried.length).toBe(rule ? 1 : 0);
  expect(
    /^[a-z_]+: after "MCP error -32000: Connection closed", re-initialized and called again/.test(run.detail),
  ).toBe(rule !== undefined);
  expect(run.detail).not.toContain('no answer within');
}

describe.concurrent('client guard in front of the real SDK client, every lab scenario', () => {
  for (const name of scenarioNames) {
    const expected = LAB[name];
    it(
      `${name}: ${findScenario(name)?.clientVerdict ?? '?'} without the guard, ${expected.verdict} with it${expected.refused ? ` (refused: ${expected.refused})` : ''}`,
      async () => {
        const { result, connections } = await runInLab(name, { guard: true });
        expect(result.verdict, result.detail).toBe(expected.verdict);
        expect(result.guard?.counts).toEqual(expected.counts);
        expectProgressOnce(result);
        // Unguarded, epoch-restart-clamp hands the client an answer to a request it never sent and an incomplete JSON
        // text: nothing foreign or torn reaches it here.
        expect(result.clientErrors.filter((e) => FOREIGN_OR_TORN.test(e))).toEqual([]);
        expectRefusal(result, expected.refused);
        // What the client's fetch received, analysed as the panel would: nothing left to blame the client for.
        const rules = analyze({ tool: { name: 'lab', version: '0' }, createdAt: 0, connections }).findings.map(
          (f) => f.rule,
        );
        expect(rules.filter((rule) => CLIENT_BLAME.includes(rule))).toEqual([]);
      },
      TIMEOUT,
    );
  }

  it('the scenarios that hang the unguarded client are the ones the guard ends', () => {
    const hung = scenarioNames.filter((name) => findScenario(name)?.clientVerdict === 'hung');
    expect(hung).toEqual([
      'epoch-restart-clamp',
      'epoch-restart-fresh',
      'resume-409',
      'resume-404',
      'orphaned-elicitation',
      'server-close-not-resumed',
      'ai-sdk-close-not-resumed',
    ]);
    expect(hung.map((name) => LAB[name].verdict)).toEqual(hung.map(() => 'ok'));
  });
});

interface FaultCase {
  faults: string[];
  idScheme: LabIdScheme;
  expected: Guarded;
  /** What the inspector must still find on the wire: the server's hazard, the guard below it notwithstanding. */
  wire: string[];
}

const FAULTS: FaultCase[] = [
  {
    faults: ['cut-mid-event'],
    idScheme: 'integer',
    expected: ok({ 'torn-event-reconnect': 1 }),
    wire: ['torn-event-reconnect'],
  },
  {
    faults: ['cut-at-boundary:2', 'replay-cursor'],
    idScheme: 'integer',
    expected: ok({ 'replayed-event-duplicate': 1 }),
    wire: ['replayed-event-duplicate'],
  },
  {
    faults: ['cut-at-boundary:2', 'drop-first-replayed'],
    idScheme: 'integer',
    expected: refused('resume-id-gap'),
    wire: ['resume-id-gap'],
  },
  {
    faults: ['cut-mid-event:60', 'restart-epoch'],
    idScheme: 'epoch-seq',
    expected: refused('epoch-mismatch', { 'torn-event-reconnect': 1 }),
    wire: ['epoch-mismatch'],
  },
  ...[409, 404, 400].map((status): FaultCase => ({
    faults: ['cut-at-boundary:2', `resume-status:${status}`],
    idScheme: 'integer',
    expected: refused('resumption-rejected'),
    wire: ['resumption-rejected'],
  })),
  {
    faults: ['cut-at-boundary:2', 'resume-silent'],
    idScheme: 'integer',
    expected: refused('resume-not-honored'),
    wire: ['resume-not-honored'],
  },
  {
    faults: ['cut-at-boundary:2', 'close-resumes'],
    idScheme: 'integer',
    expected: refused('reconnect-storm', { 'post-stream-not-resumed': 1 }),
    wire: ['resume-not-honored'],
  },
];

/**
 * Rules that blame the client for what it did after the fault: the guard's job is to leave none of them (a request
 * abandoned with a refused session counts as made again once the re-initialized session calls it again).
 */
const CLIENT_BLAME = [
  'stale-cursor-retry',
  'reconnect-storm',
  'session-not-reinitialized',
  'post-stream-not-resumed',
  'unanswered-after-disconnect',
];

describe.concurrent(
  'client guard in front of the real SDK client, through `mcp-stream-inspector proxy --fault`',
  () => {
    const progress: ToolCall[] = [{ tool: 'stream_progress', args: { count: 5, delayMs: 40 } }];
    for (const { faults, idScheme, expected, wire } of FAULTS) {
      it(
        `${faults.join(' + ')}: ${expected.refused ? `refused (${expected.refused}), re-initialized, answered` : 'answered, whole'}`,
        async () => {
          const origin = await startOrigin(idScheme);
          try {
            const args = faults.flatMap((fault) => ['--fault', fault]);
            const run = await runThroughProxy(
              origin,
              clientScenario('skip-on-resume', progress),
              args,
              `guarded-${faults.join('+').replace(/[:]/g, '-')}.json`,
              { guard: true, guardOptions: { silentResumeMs: 1000 } },
            );
            expect(run.result.verdict, run.result.detail).toBe('ok');
            expect(run.result.calls[0]?.progress).toEqual([1, 2, 3, 4, 5]);
            expect(run.result.guard?.counts).toEqual(expected.counts);
            expectRefusal(run.result, expected.refused);
            for (const rule of wire) expect(run.rules).toContain(rule);
            expect(run.rules.filter((rule) => CLIENT_BLAME.includes(rule))).toEqual([]);
          } finally {
            await origin.close();
          }
        },
        TIMEOUT,
      );
    }
  },
);

describe('client guard in front of the real SDK v2 client', () => {
  it(
    '2026-07-28: a stream cut mid-event is re-issued once with a new id and answered',
    async () => {
      const lab = await startV2Lab();
      const findings: GuardFinding[] = [];
      const guard = createClientGuard({ onFinding: (f) => findings.push(f) });
      try {
        lab.plans.push(cutProgress());
        const errors: string[] = [];
        const client = await connect({ ...lab, fetch: guard.fetch }, '2026-07-28', errors);
        const steps: string[] = [];
        try {
          await progressCall(client, steps, 5000);
        } finally {
          await client.close();
        }
        expect(steps).toEqual([expect.stringMatching(/^stream_progress ok \(progress /)]);
        expect(lab.log.cuts.length).toBe(1);
        expect(findings.map((f) => [f.rule, f.action])).toEqual([
          ['torn-event-reconnect', 'withheld'],
          ['stateless-request-not-reissued', 'reissued'],
        ]);
        const calls = lab.recorder
          .exchanges()
          .map((e) => JSON.parse(e.requestBody?.toString() ?? '{}') as { id?: unknown; method?: string })
          .filter((body) => body.method === 'tools/call');
        expect(calls.map((c) => typeof c.id)).toEqual(['number', 'string']);
        expect(calls[1]?.id).toBe(`mcp-guard-reissue-${String(calls[0]?.id)}`);
      } finally {
        await lab.close();
      }
    },
    TIMEOUT,
  );

  it(
    '2025 era: a restarted epoch is refused, the client re-initializes and the call is answered',
    async () => {
      const origin = await startOrigin('epoch-seq');
      const proxy = await startCliProxy(origin, ['--fault', 'cut-mid-event:60', '--fault', 'restart-epoch']);
      const rejected: unknown[] = [];
      let recovering: Promise<void> | undefined;
      const guard = createClientGuard({
        onRejected: (error) => {
          rejected.push(error);
          recovering ??= Promise.resolve().then(() =>
            guard.recover(client, () => client.connect(new V2Transport(new URL(proxy.url), { fetch: guard.fetch }))),
          );
        },
      });
      const errors: string[] = [];
      const client: V2Client = await connect(
        { url: proxy.url, plans: [], toolsChanged: () => undefined },
        '2025',
        errors,
        new V2Transport(new URL(proxy.url), { fetch: guard.fetch }),
      );
      const steps: string[] = [];
      try {
        const first = await progressCall(client, steps, 5000).catch((error: unknown) => error);
        expect(first).toBeInstanceOf(Error);
        expect(String(first)).not.toMatch(/timed out/i);
        await recovering;
        await progressCall(client, steps, 5000);
      } finally {
        await client.close();
        await proxy.stop();
        await origin.close();
      }
      expect(rejected.map((e) => isResumptionRejected(e))).toEqual([true]);
      expect(rejected.map((e) => (e as { rule: string }).rule)).toEqual(['epoch-mismatch']);
      expect(steps).toEqual([expect.stringMatching(/^stream_progress ok/)]);
    },
    TIMEOUT,
  );
});
