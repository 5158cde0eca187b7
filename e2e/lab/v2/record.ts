// Node (dev script, `npm run fixtures:v2`): records the committed fixtures/v2-*/ folders from real TypeScript SDK
// v2 traffic in 2026-07-28 mode (no browser: client and server are both Node). Writes what the server's wire tap
// saw as capture.har + chunks.ndjson + expected.json, keeping a recording only when the client ended as planned and
// the core's findings match.
// CLI: npm run fixtures:v2 [-- name... [--out dir]]
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { analyze } from '../../../src/core/analyze';
import { importHar } from '../../../src/core/capture/har';
import { rules } from '../../../src/core/guard/index';
import { toChunksNdjson, toHar } from '../wire-har';
import { runProbeFallback } from './fallback';
import { runV2, type V2RunName, type V2RunResult } from './runs';
import { startV2Lab } from './server';
import type { TapLog } from './wire-tap';
import { writeFixture } from '../fixture-files';

const FIXTURES_DIR = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
/**
 * A fixed port per recording keeps URLs and Host headers the same from one recording to the next (one each: Node's
 * fetch keeps idle connections to a port, which a closed server leaves dead).
 */
const PORT = 47194;
const ATTEMPTS = 3;

interface V2Plan {
  name: V2RunName | 'probe-fallback';
  verdict: V2RunResult['verdict'];
  must: string[];
  notes: string;
}

export const V2_PLANS: readonly V2Plan[] = [
  {
    name: 'v2-clean',
    verdict: 'ok',
    must: [],
    notes:
      'Clean control, TS SDK v2 client pinned to 2026-07-28 against a createMcpHandler server: server/discover, stream_progress (progress as SSE events without ids), a 64 KiB big_result (plain JSON), ask_user as a multi-round trip (input_required with requestState, then the retry), a subscriptions/listen stream (acknowledged, one tools/list_changed) that the client closes (abort + notifications/cancelled POST).',
  },
  {
    name: 'v2-cut-not-reissued',
    verdict: 'error',
    must: ['stateless-request-not-reissued'],
    notes:
      'The stream_progress response stream cut 40 bytes into its third event; the SDK fails the call and the application gives up.',
  },
  {
    name: 'v2-cut-reissued',
    verdict: 'ok',
    must: [],
    notes:
      'The same cut; the application calls the tool again and the SDK sends it under a new request id, answered in full.',
  },
  {
    name: 'v2-mixed-eras',
    verdict: 'error',
    must: ['stateless-request-not-reissued'],
    notes:
      'One endpoint, no session ids: a v2 client left at the 2025 handshake (initialize 2025-11-25, served statelessly) and a 2026-07-28 client whose stream_progress stream is cut and never re-issued; the 2025 client then calls the tool cleanly.',
  },
  {
    name: 'probe-fallback',
    verdict: 'ok',
    must: ['version-fallback'],
    notes:
      "A TS SDK v2 client negotiating by itself (versionNegotiation auto) against the lab's SDK 1.32 server behind the lab proxy: server/discover at 2026-07-28 answered 400 (Mcp-Session-Id header is required), then initialize at 2025-11-25, the standalone GET and a stream_progress call, all in one session.",
  },
  {
    name: 'v2-reissued-same-id',
    verdict: 'ok',
    must: ['reissued-with-same-id'],
    notes:
      "The cut of v2-cut-not-reissued, and an application that retries below the SDK: it keeps the TS SDK v2 transport, and when the transport reports the broken stream it sends the lost tools/call message again through it as it was, under the same JSON-RPC id; the SDK call still waiting on that id takes the copy's answer as its own (its onprogress sees progress 1 and 2 twice).",
  },
];

interface Recorded {
  result: V2RunResult;
  /** The cuts the wire tap applied, in order. */
  cuts: TapLog['cuts'];
  har: string;
  ndjson: string;
  expected: { must: string[]; must_not: string[]; notes: string };
}

export async function recordV2(plan: V2Plan, port = 0): Promise<Recorded> {
  const mustNot = rules.map((r) => r.id).filter((id) => !plan.must.includes(id));
  const expected = { must: plan.must, must_not: mustNot, notes: `${plan.notes} The client ended ${plan.verdict}.` };
  if (plan.name === 'probe-fallback') {
    const { result, recording } = await runProbeFallback(port);
    return { result, cuts: [], har: toHar(recording), ndjson: toChunksNdjson(recording), expected };
  }
  const lab = await startV2Lab(port);
  try {
    lab.recorder.reset();
    const result = await runV2(plan.name, lab);
    await lab.recorder.settled(5000);
    const recording = { startedAt: lab.recorder.startedAt, pageUrl: lab.url, exchanges: lab.recorder.exchanges() };
    return { result, cuts: lab.log.cuts, har: toHar(recording), ndjson: toChunksNdjson(recording), expected };
  } finally {
    await lab.close();
  }
}

/** Why a recording is not fit to keep, or undefined when it is. */
export function problemWith(plan: V2Plan, recorded: Recorded): string | undefined {
  if (recorded.result.verdict !== plan.verdict)
    return `the client ended ${recorded.result.verdict} (${recorded.result.steps.join('; ')}; ${recorded.result.errors.join('; ')})`;
  const found = new Set(
    analyze(importHar(recorded.har, { chunksNdjson: recorded.ndjson })).findings.map((f) => f.rule),
  );
  const missing = plan.must.filter((id) => !found.has(id));
  const unexpected = recorded.expected.must_not.filter((id) => found.has(id));
  if (missing.length || unexpected.length)
    return `findings ${[...found].join(', ') || 'none'}: missing [${missing.join(', ')}], unexpected [${unexpected.join(', ')}]`;
  return undefined;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const out = argv.indexOf('--out');
  const outDir = out >= 0 && argv[out + 1] !== undefined ? resolve(argv[out + 1] as string) : FIXTURES_DIR;
  // Without --out (index -1), index 0 is a name, not the folder after it.
  const names = argv.filter((_a, i) => out < 0 || (i !== out && i !== out + 1));
  const plans = V2_PLANS.filter((p) => names.length === 0 || names.includes(p.name));
  mkdirSync(outDir, { recursive: true });
  let failed = 0;
  for (const plan of plans) {
    let problem: string | undefined = 'not recorded';
    for (let attempt = 1; attempt <= ATTEMPTS && problem !== undefined; attempt++) {
      const recorded = await recordV2(plan, PORT + V2_PLANS.indexOf(plan) + 10 * (attempt - 1));
      problem = problemWith(plan, recorded);
      if (problem === undefined) {
        writeFixture(outDir, plan.name, recorded);
        process.stdout.write(`ok   ${plan.name.padEnd(22)} ${recorded.result.steps.join('; ')}\n`);
      } else process.stdout.write(`retry ${plan.name} (attempt ${attempt}/${ATTEMPTS}): ${problem}\n`);
    }
    if (problem !== undefined) {
      failed += 1;
      process.stdout.write(`FAIL ${plan.name}: kept the previous fixture\n`);
    }
  }
  process.exitCode = failed > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
