// Node (dev script, `npm run fixtures:py`): records the committed fixtures/py-*/ folders from real Python SDK
// (mcp 2.3.0) traffic, through the product's fault proxy with the lab's wire recorder (python/runs.ts). Keeps a
// recording only when the client ended as planned and the core's findings match, like v2/record.ts.
// CLI: npm run fixtures:py [-- name... [--out dir]]
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { analyze } from '../../../src/core/analyze';
import { importHar } from '../../../src/core/capture/har';
import { rules } from '../../../src/core/guard/index';
import { writeFixture } from '../fixture-files';
import { toChunksNdjson, toHar } from '../wire-har';
import { type PyRunName, type PyRunResult, runPy } from './runs';
import { pythonEnv } from './venv';

const FIXTURES_DIR = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
/** Fixed ports keep URLs and Host headers stable from one recording to the next (the upstream gets port + 100). */
const PORT = 47294;
const ATTEMPTS = 3;

export interface PyPlan {
  name: PyRunName;
  verdict: PyRunResult['verdict'];
  must: string[];
  notes: string;
}

export const PY_PLANS: readonly PyPlan[] = [
  {
    name: 'py-clean',
    verdict: 'ok',
    must: [],
    notes:
      'Clean control, Python SDK (mcp 2.3.0) client at its default mode="auto" against the Python SDK server, through the fault proxy with no fault: server/discover negotiates 2026-07-28, stream_progress (progress over SSE), a 64 KiB big_result, ask_user (input_required, the retry with requestState), a subscriptions/listen stream that receives tools/list_changed (published by the touch_tools tool), then closed.',
  },
  {
    name: 'py-client-ts-server',
    verdict: 'ok',
    must: [],
    notes:
      'Clean control, Python SDK client (mode="auto") against the TS SDK v2 server (createMcpHandler), through the fault proxy: the same calls; the lab publishes tools/list_changed on the listen stream.',
  },
  {
    name: 'py-server-ts-client',
    verdict: 'ok',
    must: [],
    notes:
      "Clean control, TS SDK v2 client pinned to 2026-07-28 against the Python SDK server, through the fault proxy: v2/runs.ts's v2-clean run; a second v2 client calls touch_tools to publish tools/list_changed.",
  },
  {
    name: 'py-client-cut-not-reissued',
    verdict: 'error',
    must: ['stateless-request-not-reissued'],
    notes:
      'Python SDK client against the TS SDK v2 server; the fault proxy cuts the stream_progress response stream 40 bytes into the data of the event after progress 2; the SDK fails the call and the application does not call again.',
  },
  {
    name: 'py-server-cut-not-reissued',
    verdict: 'error',
    must: ['stateless-request-not-reissued'],
    notes:
      'TS SDK v2 client (2026-07-28) against the Python SDK server; the fault proxy cuts the stream_progress response stream 40 bytes into the data of the event after progress 2; the call times out and is not re-issued.',
  },
  {
    name: 'py-2025-resume',
    verdict: 'ok',
    must: ['torn-event-reconnect'],
    notes:
      'The 2025 era: the TS SDK 1.32 client (initialize 2025-11-25, a session) against the Python SDK server with its event store; the fault proxy cuts the stream_progress POST stream 40 bytes into the data of progress 3; the client resumes with GET Last-Event-ID; the server replays the rest (CRLF framing) and then writes a new priming event.',
  },
  {
    name: 'py-client-cut-reissued',
    verdict: 'ok',
    must: [],
    notes:
      'The twin of py-client-cut-not-reissued: the same cut (fault proxy, cut-mid-event 40 bytes into the data of the event after progress 2, Python SDK client against the TS SDK v2 server); the SDK fails the call ("SSE stream ended without a response") and the application calls the tool again, which the SDK sends as a new request with a new id, answered in full.',
  },
  {
    name: 'py-fault-server-request',
    verdict: 'ok',
    must: ['client-posted-response', 'server-request-on-stream'],
    notes:
      'Python SDK client against the Python SDK server, one stream_progress call; the fault proxy writes a roots/list request first on its response stream (inject-server-request). The Python client answers it the 2025 way: it POSTs a JSON-RPC error (-32601) to id "fault-proxy-roots-1", which the server refuses with 400 -32600; the call itself completes.',
  },
  {
    name: 'py-fault-version-header',
    verdict: 'error',
    must: ['header-mismatch-not-rejected', 'protocol-version-mismatch', 'stateless-session-headers'],
    notes:
      'Python SDK client against the Python SDK server, one stream_progress call (progress over SSE, answered); the tools/list the SDK sends after it (to learn the output schemas) goes upstream with MCP-Protocol-Version 2025-11-25 while its _meta says 2026-07-28 (fault proxy, set-header,method=tools/list). The Python server routes it by the header to its 2025 session path and answers 400 with -32600 "Bad Request: Missing session ID" (not -32020), minting an Mcp-Session-Id on that answer; the SDK fails the call.',
  },
  {
    name: 'py-fault-method-header',
    verdict: 'ok',
    must: ['method-header-mismatch'],
    notes:
      'Python SDK client against the Python SDK server, one stream_progress call sent upstream with Mcp-Method tools/list (fault proxy, set-header). The server rejects it as the spec says (400 with -32020, so no header-mismatch-not-rejected); the client then lists the tools and retries the call under a new id, which the proxy passes unchanged.',
  },
];

export interface PyFixture {
  result: PyRunResult;
  har: string;
  ndjson: string;
  expected: { must: string[]; must_not: string[]; notes: string };
}

export async function recordPy(plan: PyPlan, python: string, port = 0): Promise<PyFixture> {
  const mustNot = rules.map((r) => r.id).filter((id) => !plan.must.includes(id));
  const expected = { must: plan.must, must_not: mustNot, notes: `${plan.notes} The client ended ${plan.verdict}.` };
  const { result, recording } = await runPy(plan.name, python, port);
  return { result, har: toHar(recording), ndjson: toChunksNdjson(recording), expected };
}

/** The rule ids the core finds in a recording, sorted. */
export function rulesIn(recorded: { har: string; ndjson: string }): string[] {
  const found = analyze(importHar(recorded.har, { chunksNdjson: recorded.ndjson })).findings.map((f) => f.rule);
  return [...new Set(found)].sort();
}

/** Why a recording is not fit to keep, or undefined when it is. */
export function problemWith(plan: PyPlan, recorded: PyFixture): string | undefined {
  if (recorded.result.verdict !== plan.verdict)
    return `the client ended ${recorded.result.verdict} (${recorded.result.steps.join('; ')}; ${recorded.result.errors.join('; ')})`;
  const found = new Set(rulesIn(recorded));
  const missing = plan.must.filter((id) => !found.has(id));
  const unexpected = recorded.expected.must_not.filter((id) => found.has(id));
  if (missing.length || unexpected.length)
    return `findings ${[...found].join(', ') || 'none'}: missing [${missing.join(', ')}], unexpected [${unexpected.join(', ')}]`;
  return undefined;
}

async function main(): Promise<void> {
  const env = pythonEnv();
  if (!env.ok) throw new Error(env.reason);
  const argv = process.argv.slice(2);
  const out = argv.indexOf('--out');
  const outDir = out >= 0 && argv[out + 1] !== undefined ? resolve(argv[out + 1] as string) : FIXTURES_DIR;
  const names = argv.filter((_a, i) => out < 0 || (i !== out && i !== out + 1));
  const plans = PY_PLANS.filter((p) => names.length === 0 || names.includes(p.name));
  mkdirSync(outDir, { recursive: true });
  let failed = 0;
  for (const plan of plans) {
    let problem: string | undefined = 'not recorded';
    for (let attempt = 1; attempt <= ATTEMPTS && problem !== undefined; attempt++) {
      const recorded = await recordPy(plan, env.python, PORT + PY_PLANS.indexOf(plan) + 10 * (attempt - 1));
      problem = problemWith(plan, recorded);
      if (problem === undefined) {
        writeFixture(outDir, plan.name, recorded);
        process.stdout.write(`ok   ${plan.name.padEnd(28)} ${recorded.result.steps.join('; ')}\n`);
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
