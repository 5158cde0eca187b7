// Panel (pure): the Break menu's choices as the product's fault specs (core/fault/spec.ts, the CLI proxy's
// `--fault` syntax), and each spec in words for the menu and the banner.
import { DEFAULT_CUT_BYTES, parseFaultSpec } from '../../core/fault/spec';

/**
 * What happens to the next tools/call stream: a cut, or what an intermediary does to time (one at a time);
 * `idle-cut@every` is an idle proxy in front of the server, cutting every quiet stream until Disarm.
 */
export type CutChoice =
  'none' | 'cut-mid-event' | 'cut-at-boundary' | 'idle-cut' | 'idle-cut@every' | 'stall' | 'buffer' | 'buffer:body';
export type ResumeChoice =
  | 'none'
  | 'drop-first-replayed'
  | 'replay-cursor'
  | 'resume-status:404'
  | 'resume-status:409'
  | 'resume-status:400'
  | 'resume-silent'
  | 'close-resumes';

export interface BreakChoices {
  cut: CutChoice;
  /** cut-mid-event: bytes into the data of the struck event. */
  bytes: number;
  /** cut-at-boundary: events that pass before the cut. */
  events: number;
  /** idle-cut: seconds without a byte before the cut. */
  seconds: number;
  /** idle-cut@every: the idle proxy's timeout, seconds without a byte before each cut. */
  everySeconds: number;
  /** stall: milliseconds the stream stops. */
  ms: number;
  resume: ResumeChoice;
}

export const DEFAULT_BREAK: BreakChoices = {
  cut: 'cut-mid-event',
  bytes: DEFAULT_CUT_BYTES,
  events: 1,
  // An nginx tuned short (proxy_read_timeout 3s), and a stall longer than a stream's usual gaps.
  seconds: 3,
  everySeconds: 3,
  ms: 5000,
  resume: 'none',
};

export const CUT_CHOICES: readonly { value: CutChoice; label: string }[] = [
  { value: 'none', label: 'Leave it alone' },
  { value: 'cut-mid-event', label: 'Cut mid-event, as a network error' },
  { value: 'cut-at-boundary', label: 'Cut on an event boundary' },
  { value: 'idle-cut', label: 'Cut it after silence, as an idle timeout' },
  { value: 'idle-cut@every', label: 'Cut every quiet stream (an idle proxy)' },
  { value: 'stall', label: 'Stall it before its first event with data' },
  { value: 'buffer', label: 'Buffer it: head and body only at its end' },
  { value: 'buffer:body', label: 'Buffer its body only (the head at once)' },
];

export const RESUME_CHOICES: readonly { value: ResumeChoice; label: string }[] = [
  { value: 'none', label: 'Leave it alone' },
  { value: 'drop-first-replayed', label: 'Drop its first event' },
  { value: 'replay-cursor', label: "Re-deliver the cursor's own event first" },
  { value: 'resume-status:404', label: 'Answer 404 (session gone)' },
  { value: 'resume-status:409', label: 'Answer 409 (conflict)' },
  { value: 'resume-status:400', label: 'Answer 400 (bad request)' },
  { value: 'resume-silent', label: 'Answer 200 with keep-alives only' },
  { value: 'close-resumes', label: 'End every resume at once with a new id (until Disarm)' },
];

/** The specs to arm, in the order they compose: the cut first, then what its resume meets. */
export function breakSpecs(choices: BreakChoices): string[] {
  const specs: string[] = [];
  if (choices.cut === 'cut-mid-event') specs.push(`cut-mid-event:${wholeAtLeast(choices.bytes, 0)}`);
  if (choices.cut === 'cut-at-boundary') specs.push(`cut-at-boundary:${wholeAtLeast(choices.events, 1)}`);
  if (choices.cut === 'idle-cut') specs.push(`idle-cut:${secondsOf(choices.seconds)}`);
  if (choices.cut === 'idle-cut@every') specs.push(`idle-cut:${secondsOf(choices.everySeconds)}@every`);
  if (choices.cut === 'stall') specs.push(`stall:${wholeAtLeast(choices.ms, 1)}`);
  if (choices.cut === 'buffer' || choices.cut === 'buffer:body') specs.push(choices.cut);
  if (choices.resume !== 'none') specs.push(choices.resume);
  return specs.filter((spec) => parseFaultSpec(spec).ok);
}

function wholeAtLeast(value: number, min: number): number {
  return Number.isFinite(value) ? Math.max(min, Math.floor(value)) : min;
}

/** Seconds as the spec takes them: above 0, to the millisecond. */
function secondsOf(value: number): number {
  return Number.isFinite(value) ? Math.max(1, Math.round(value * 1000)) / 1000 : 1;
}

/** A fault that strikes every time until disarmed (`close-resumes`, `idle-cut:N@every`), not once. */
export function strikesEveryTime(spec: string): boolean {
  const parsed = parseFaultSpec(spec);
  return parsed.ok && parsed.fault.every === true;
}

/** A spec in words, as the banner lists it. */
export function describeFault(spec: string): string {
  const parsed = parseFaultSpec(spec);
  if (!parsed.ok) return spec;
  const fault = parsed.fault;
  switch (fault.kind) {
    case 'cut-mid-event':
      return `Cut the next ${fault.match.method} stream ${typeof fault.at === 'object' ? fault.at.dataBytes : 0} bytes into an event`;
    case 'cut-at-boundary':
      return `Cut the next ${fault.match.method} stream after ${fault.after.count} event${fault.after.count === 1 ? '' : 's'}`;
    case 'idle-cut':
      return fault.anyStream
        ? `Cut every stream quiet for ${fault.ms / 1000} s, as an idle proxy`
        : `Cut the next ${fault.match.method} stream after ${fault.ms / 1000} s with no byte`;
    case 'stall':
      return `Stall the next ${fault.match.method} stream ${fault.ms} ms before its first event with data`;
    case 'buffer':
      return `Hold the next ${fault.match.method} stream${fault.holdHead ? ', head and body,' : "'s body"} until it ends`;
    case 'drop-first-replayed':
      return 'Drop the first event of the next resume';
    case 'replay-cursor':
      return "Re-deliver the cursor's event first on the next resume";
    case 'resume-status':
      return `Answer the next resume ${fault.status}`;
    case 'resume-silent':
      return 'Answer the next resume with keep-alives only';
    case 'close-resumes':
      return 'End every resume at once with a new priming id';
    default:
      return spec;
  }
}
