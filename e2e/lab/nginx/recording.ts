// Runs in Node (the intermediaries' fixture recorder and `npm start -- --headless`): one run through its intermediary,
// recorded at the client as HAR + chunks.ndjson, judged by the core's rules against the run's plan, with the
// measured silences and bursts for the fixture's notes.
import { analyze } from '../../../src/core/analyze';
import { importHar } from '../../../src/core/capture/har';
import { rules } from '../../../src/core/guard/index';
import { requestHeader } from '../testing';
import { toChunksNdjson, toHar } from '../wire-har';
import { clientWireRecording } from './client-wire';
import { type IntermediaryRun, runIntermediary, type RunOutcome } from './runs';
import { callWrites, silenceBeforeEnd, toolCall, upstreamTimeouts } from './wire-facts';

interface Plan {
  /** The rules this recording must give (every other rule must stay quiet). */
  must: string[];
  verdict: 'ok' | 'hung';
}

const PLANS: Record<string, Plan> = {
  'nginx-idle-get-cut': { must: ['idle-timeout-cut'], verdict: 'ok' },
  'nginx-slow-call-cut': { must: ['idle-timeout-cut'], verdict: 'ok' },
  // The resume nginx cut before any event is an idle cut, not a server that lost the stream: resume-not-honored
  // stays quiet on a resume cut after the idle threshold's silence.
  'nginx-slow-call-lost': { must: ['idle-timeout-cut', 'unanswered-after-disconnect'], verdict: 'hung' },
  'nginx-keepalive-fixed': { must: [], verdict: 'ok' },
  'compression-buffered': { must: ['buffered-stream'], verdict: 'ok' },
  'nginx-buffered': { must: ['buffered-stream'], verdict: 'ok' },
  'compression-streamed': { must: [], verdict: 'ok' },
  'nginx-request-hang': { must: ['request-hang'], verdict: 'ok' },
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
  const recording = clientWireRecording(outcome.connections, `${outcome.baseUrl}/mcp`, outcome.observedUntil);
  const har = toHar(recording);
  const ndjson = toChunksNdjson(recording);
  const found = new Set(analyze(importHar(har, { chunksNdjson: ndjson })).findings.map((f) => f.rule));
  const mustNot = rules.map((r) => r.id).filter((id) => !plan.must.includes(id));
  const missing = plan.must.filter((id) => !found.has(id));
  const extra = mustNot.filter((id) => found.has(id));
  const problem =
    outcome.result.verdict !== plan.verdict
      ? `the client ended ${outcome.result.verdict}, want ${plan.verdict}`
      : missing.length > 0 || extra.length > 0
        ? `findings ${[...found].join(', ') || 'none'}: missing ${missing.join(', ') || '-'}, unexpected ${extra.join(', ') || '-'}`
        : undefined;
  const notes = `${run.notes}${measured(outcome)}`;
  return {
    outcome,
    har,
    ndjson,
    found: [...found].sort(),
    problem,
    expected: { must: plan.must, must_not: mustNot, notes },
  };
}
