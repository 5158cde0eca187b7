// Node (dev script, `npm run fixtures:proxy-faults`): records fixtures/fault-*/ from the real SDK 1.32 client and
// the lab's real SDK server with the product's fault proxy between them (src/proxy, the `--fault` specs of
// `mcp-stream-inspector proxy`), keeping a recording only when the core finds exactly what its plan says.
// CLI: npm run fixtures:proxy-faults [-- name...]
import { fileURLToPath } from 'node:url';
import { analyze } from '../../src/core/analyze';
import { importHar } from '../../src/core/capture/har';
import type { FaultReport } from '../../src/core/fault/planner';
import { parseFaultSpec } from '../../src/core/fault/spec';
import { rules } from '../../src/core/guard/index';
import { startFaultProxy } from '../../src/proxy/fault-proxy';
import { runScenario } from './client/run-scenario';
import { writeFixture } from './fixture-files';
import { WireRecorder } from './proxy/wire-recorder';
import { findScenario, type Scenario } from './scenarios';
import { MCP_PATH, startInstance } from './server/instance';
import { toChunksNdjson, toHar } from './wire-har';

const FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/', import.meta.url));
/** A fixed proxy port per recording keeps the URLs the same from one recording to the next. */
const PORT = 47260;
const ATTEMPTS = 3;

interface ProxyFaultPlan {
  /** The fixture's folder: fixtures/<name>/. */
  name: string;
  faults: string[];
  scenario: Scenario;
  must: string[];
  notes: string;
}

const PLANS: readonly ProxyFaultPlan[] = [
  {
    name: 'fault-close-resumes',
    faults: ['close-resumes'],
    // The application keeps the client 3 s after the call (the lab's resume-after-error keeps it 0.8 s).
    scenario: { ...(findScenario('resume-after-error') as Scenario), lingerMs: 3000 },
    must: ['reconnect-storm', 'resume-after-answer'],
    notes:
      "The lab's resume-after-error run (a tools/call answered with a JSON-RPC error -32042 on its SSE stream; the SDK 1.32 client resumes that finished stream) with the product's fault proxy answering every resume itself (close-resumes): 200, one new priming event after the cursor, then the end, as a server with nothing to replay that closes at once. The client schedules the resume of a stream that ended cleanly as attempt 0 again, so maxRetries (2) never runs out: it resumes every retry: 150 ms, each time from the last priming id, for the 3 s the application keeps it.",
  },
];

async function record(plan: ProxyFaultPlan, port: number): Promise<string | undefined> {
  const origin = await startInstance({ name: 'A', origin: { idScheme: plan.scenario.origin.idScheme } });
  const recorder = new WireRecorder();
  const reports: FaultReport[] = [];
  const proxy = await startFaultProxy({
    upstream: new URL(`${origin.url}${MCP_PATH}`),
    host: '127.0.0.1',
    port,
    faults: plan.faults.map((spec) => {
      const parsed = parseFaultSpec(spec);
      if (!parsed.ok) throw new Error(parsed.error);
      return parsed.fault;
    }),
    onReport: (r) => reports.push(r),
    recorder,
  });
  try {
    const result = await runScenario(plan.scenario, { baseUrl: new URL(proxy.url).origin, selectScenario: false });
    await recorder.settled(5000);
    const recording = { startedAt: recorder.startedAt, pageUrl: proxy.url, exchanges: recorder.exchanges() };
    const har = toHar(recording);
    const ndjson = toChunksNdjson(recording);
    const found = [...new Set(analyze(importHar(har, { chunksNdjson: ndjson })).findings.map((f) => f.rule))].sort();
    if (found.join() !== [...plan.must].sort().join())
      return `findings ${found.join(', ') || 'none'}, want ${plan.must.join(', ')}`;
    const mustNot = rules.map((r) => r.id).filter((id) => !plan.must.includes(id));
    const notes = `${plan.notes} The proxy struck ${reports.length} time(s); the client ended ${result.verdict}.`;
    writeFixture(FIXTURES_DIR, plan.name, { har, ndjson, expected: { must: plan.must, must_not: mustNot, notes } });
    return undefined;
  } finally {
    await proxy.close();
    await origin.close();
  }
}

async function main(): Promise<void> {
  const names = process.argv.slice(2);
  let failed = 0;
  for (const [index, plan] of PLANS.entries()) {
    if (names.length > 0 && !names.includes(plan.name)) continue;
    let problem: string | undefined = 'not recorded';
    for (let attempt = 1; attempt <= ATTEMPTS && problem !== undefined; attempt++) {
      problem = await record(plan, PORT + index + 10 * (attempt - 1));
      process.stdout.write(
        problem === undefined ? `ok   ${plan.name}\n` : `retry ${plan.name} (${attempt}/${ATTEMPTS}): ${problem}\n`,
      );
    }
    if (problem !== undefined) failed += 1;
  }
  process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
