// Node (benches): reads a CDP CPU profile of the bench page: which samples ran the extension's code (any frame
// from a chrome-extension:// script: the MAIN-world tap or the isolated-world bridge, both run on the page's
// thread), and where each of the page's long tasks falls on the profile's clock.
import type { PageLongTask } from './page-longtasks';

/** The parts of a CDP Profiler.Profile this file reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  /** Microseconds, on the profiler's clock. */
  startTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export const EXTENSION_URL_PREFIX = 'chrome-extension://';

interface Sample {
  /** Microseconds on the profiler's clock. */
  time: number;
  /** Microseconds until the next sample: the time this sample stands for. */
  span: number;
  extension: boolean;
  mark: boolean;
  idle: boolean;
}

/** The profiler's idle marker; '(program)' is busy (native work such as Blink's stream code), so it is not here. */
const IDLE = new Set(['(idle)']);

function samplesOf(profile: CpuProfile): Sample[] {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const onStack = (id: number, test: (frame: { functionName: string; url: string }) => boolean): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (node && test(node.callFrame)) return true;
    }
    return false;
  };
  const ids = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const out: Sample[] = [];
  let time = profile.startTime;
  for (const [i, id] of ids.entries()) {
    time += deltas[i] ?? 0;
    const next = deltas[i + 1] ?? 0;
    out.push({
      time,
      span: next,
      extension: onStack(id, (f) => f.url.startsWith(EXTENSION_URL_PREFIX)),
      mark: onStack(id, (f) => f.functionName === 'benchClockMark'),
      idle: IDLE.has(byId.get(id)?.callFrame.functionName ?? ''),
    });
  }
  return out;
}

export interface Attribution {
  /** ms of samples with extension code on the stack, over the whole profile. */
  extensionMs: number;
  /** ms of samples that were not idle. */
  busyMs: number;
  /**
   * Share of samples inside the long tasks that were busy: near 1 when the clocks are lined up right (a long task
   * is busy by definition), a check on the mark.
   */
  busyInsideTasks: number;
  /** Per long task: the extension samples inside it (count, and the ms they stand for). */
  perTask: { samples: number; ms: number }[];
}

/**
 * Lines the page clock up with the profile by the clock mark (the first sample inside benchClockMark is at most one
 * sampling interval after the mark's start), then attributes samples to each long task.
 */
export function attribute(profile: CpuProfile, markStartMs: number, tasks: readonly PageLongTask[]): Attribution {
  const samples = samplesOf(profile);
  const firstMark = samples.find((s) => s.mark);
  if (!firstMark) throw new Error('the CPU profile has no sample inside benchClockMark: cannot line the clocks up');
  const offsetUs = firstMark.time - markStartMs * 1000;
  let extensionUs = 0;
  let busyUs = 0;
  for (const s of samples) {
    if (s.extension) extensionUs += s.span;
    if (!s.idle && !s.mark) busyUs += s.span;
  }
  let inside = 0;
  let busyInside = 0;
  const perTask = tasks.map((task) => {
    const from = task.start * 1000 + offsetUs;
    const to = (task.start + task.duration) * 1000 + offsetUs;
    let count = 0;
    let us = 0;
    for (const s of samples) {
      if (s.time < from || s.time > to) continue;
      inside++;
      if (!s.idle) busyInside++;
      if (!s.extension) continue;
      count++;
      us += s.span;
    }
    return { samples: count, ms: us / 1000 };
  });
  return {
    extensionMs: extensionUs / 1000,
    busyMs: busyUs / 1000,
    busyInsideTasks: inside > 0 ? busyInside / inside : 1,
    perTask,
  };
}
