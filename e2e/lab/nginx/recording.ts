// Runs in Node (the intermediaries' fixture recorder and `npm start -- --headless`): one run through its intermediary,
// recorded at the client as HAR + chunks.ndjson, judged by the core's existing rules against the run's plan, with the
// measured silences and bursts for the fixture's notes.
import { analyze } from '../../../src/core/analyze';
import { importHar } from '../../../src/core/capture/har';
import { rules } from '../../../src/core/guard/index';
import { requestHeader } from '../testing';
import { toChunksNdjson, toHar } from '../wire-har';
import { clientWireRecording } from './client-wire';
import { type IntermediaryRun, runIntermediary, type RunOutcome } from './runs';
import { callWrites, silenceBeforeEnd, toolCall, upstreamTimeouts } from './wire-facts';

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

export interface RecordedIntermediary {
  outcome: RunOutcome;
  har: string;
  ndjson: string;
  /** Rule ids the core found, sorted. */
  found: string[];
  /** What is not as the plan says, or undefined. */
  problem: string | undefined;
  expected: { must: string[]; must_not: string[]; notes: string };
}

/** One run through its intermediary, recorded at the client, and judged against its plan. */
export async function recordIntermediary(run: IntermediaryRun, port?: number): Promise<RecordedIntermediary> {
  const plan = PLANS[run.name];
  if (!plan) throw new Error(`no plan for ${run.name}`);
  const outcome = await runIntermediary(run, port === undefined ? {} : { port });
  const recording = clientWireRecording(outcome.connections, `${outcome.baseUrl}/mcp`);
  const har = toHar(recording);
  const ndjson = toChunksNdjson(recording);
  const found = new Set(analyze(importHar(har, { chunksNdjson: ndjson })).findings.map((f) => f.rule));
  const unjudged = new Set([...NEW_RULES, ...(plan.open?.rules ?? [])]);
  const mustNot = rules.map((r) => r.id).filter((id) => !plan.must.includes(id) && !unjudged.has(id));
  const missing = plan.must.filter((id) => !found.has(id));
  const extra = mustNot.filter((id) => found.has(id));
  const problem =
    outcome.result.verdict !== plan.verdict
      ? `the client ended ${outcome.result.verdict}, want ${plan.verdict}`
      : missing.length > 0 || extra.length > 0
        ? `findings ${[...found].join(', ') || 'none'}: missing ${missing.join(', ') || '-'}, unexpected ${extra.join(', ') || '-'}`
        : undefined;
  const open = plan.open ? ` ${plan.open.why}` : '';
  const notes = `${run.notes}${measured(outcome)}${open} The new silence rules (${NEW_RULES.join(', ')}) are in neither list yet.`;
  return {
    outcome,
    har,
    ndjson,
    found: [...found].sort(),
    problem,
    expected: { must: plan.must, must_not: mustNot, notes },
  };
}
