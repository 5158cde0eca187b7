// Node (dev script, `npm run fixtures:nginx`): records fixtures/nginx-*/ and fixtures/compression-*/ from the real SDK
// 1.32 client through the lab's real intermediaries (runs.ts), as the client received it, keeping a recording only when
// the core's existing rules give what its plan says. The new silence rules are left out of expected.json (their
// engineer fills them in). CLI: npm run fixtures:nginx [-- name...]
import { fileURLToPath } from 'node:url';
import { analyze } from '../../../src/core/analyze';
import { importHar } from '../../../src/core/capture/har';
import { rules } from '../../../src/core/guard/index';
import { writeFixture } from '../fixture-files';
import { requestHeader } from '../testing';
import { toChunksNdjson, toHar } from '../wire-har';
import { clientWireRecording } from './client-wire';
import { type IntermediaryRun, RUNS, runIntermediary, type RunOutcome } from './runs';
import { callWrites, silenceBeforeEnd, toolCall, upstreamTimeouts } from './wire-facts';

const FIXTURES_DIR = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
/** A fixed port per recording (the one the client talks to) keeps the URLs the same from one recording to the next. */
const PORT = 47310;
const ATTEMPTS = 3;

/** Issue 29's rules: not in `must` nor `must_not` here; the rules' engineer fills them in. */
const NEW_RULES = ['request-hang', 'idle-timeout-cut', 'buffered-stream'];

interface Plan {
  /** Existing rules this recording must give. */
  must: string[];
  /** Existing rules left unjudged, with why (in the notes). */
  open?: { rules: string[]; why: string };
  verdict: 'ok' | 'hung';
}

const PLANS: Record<string, Plan> = {
  'nginx-idle-get-cut': { must: [], verdict: 'ok' },
  'nginx-slow-call-cut': { must: [], verdict: 'ok' },
  'nginx-slow-call-lost': {
    must: ['unanswered-after-disconnect'],
    open: {
      rules: ['resume-not-honored'],
      why: 'resume-not-honored fires on the resume nginx cut after 2 s with 0 bytes ("nothing of the resumed stream was delivered"), though the server answered it 200 and had nothing to send yet: an idle cut, not a server that lost the stream; left to the silence rules to tell apart.',
    },
    verdict: 'hung',
  },
  'nginx-keepalive-fixed': { must: [], verdict: 'ok' },
  'compression-buffered': { must: [], verdict: 'ok' },
  'nginx-buffered': { must: [], verdict: 'ok' },
  'compression-streamed': { must: [], verdict: 'ok' },
};

/** The measured numbers of this recording, for its notes. */
function measured(o: RunOutcome): string {
  const parts: string[] = [];
  const cut = o.connections.filter((c) => c.end === 'network-error');
  if (cut.length > 0) {
    const list = cut.map((c) => {
      const what = c.method === 'POST' ? 'POST' : requestHeader(c, 'last-event-id') ? 'resume GET' : 'GET';
      return `${what} ${c.chunks.reduce((n, ch) => n + ch.bytes.length, 0)} B after ${Math.round(silenceBeforeEnd(c))} ms`;
    });
    parts.push(
      `cut (client's view, silence before the cut): ${list.join('; ')}; nginx logged ${upstreamTimeouts(o.nginxLog)} upstream timeout(s)`,
    );
  }
  const written = callWrites(o);
  if (written.length > 0) {
    const call = toolCall(o);
    const first = call.chunks[0];
    const span = Math.round((written.at(-1)?.t as number) - (written[0]?.t as number));
    const lastWrite = written.at(-1)?.t as number;
    parts.push(
      `the tools/call stream: the server wrote ${written.length} time(s) over ${span} ms; the client got ${call.chunks.length} chunk(s), the first ${first ? `${Math.round(first.t - call.startTime)} ms after the request, ${Math.round(first.t - lastWrite)} ms after the server's last write` : 'never'}`,
    );
  }
  return parts.length > 0 ? ` Measured in this recording: ${parts.join('. ')}.` : '';
}

async function record(run: IntermediaryRun, plan: Plan, port: number): Promise<string | undefined> {
  const o = await runIntermediary(run, { port });
  if (o.result.verdict !== plan.verdict) return `the client ended ${o.result.verdict}, want ${plan.verdict}`;
  const recording = clientWireRecording(o.connections, `${o.baseUrl}/mcp`);
  const har = toHar(recording);
  const ndjson = toChunksNdjson(recording);
  const found = new Set(analyze(importHar(har, { chunksNdjson: ndjson })).findings.map((f) => f.rule));
  const unjudged = new Set([...NEW_RULES, ...(plan.open?.rules ?? [])]);
  const mustNot = rules.map((r) => r.id).filter((id) => !plan.must.includes(id) && !unjudged.has(id));
  const missing = plan.must.filter((id) => !found.has(id));
  const extra = mustNot.filter((id) => found.has(id));
  if (missing.length > 0 || extra.length > 0)
    return `findings ${[...found].join(', ') || 'none'}: missing ${missing.join(', ') || '-'}, unexpected ${extra.join(', ') || '-'}`;
  const open = plan.open ? ` ${plan.open.why}` : '';
  const notes = `${run.notes}${measured(o)}${open} The new silence rules (${NEW_RULES.join(', ')}) are in neither list yet.`;
  writeFixture(FIXTURES_DIR, run.name, { har, ndjson, expected: { must: plan.must, must_not: mustNot, notes } });
  return undefined;
}

async function main(): Promise<void> {
  const names = process.argv.slice(2);
  let failed = 0;
  for (const [index, run] of RUNS.entries()) {
    if (names.length > 0 && !names.includes(run.name)) continue;
    const plan = PLANS[run.name];
    if (!plan) throw new Error(`no plan for ${run.name}`);
    let problem: string | undefined = 'not recorded';
    for (let attempt = 1; attempt <= ATTEMPTS && problem !== undefined; attempt++) {
      problem = await record(run, plan, PORT + index + 10 * (attempt - 1));
      process.stdout.write(
        problem === undefined ? `ok   ${run.name}\n` : `retry ${run.name} (${attempt}/${ATTEMPTS}): ${problem}\n`,
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
