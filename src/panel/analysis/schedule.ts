// Panel worker (pure): when the analysis pass runs while deltas stream in. A pass is synchronous, so one is in
// flight at most; what arrives during it waits in the worker's queue and is folded before the next pass starts,
// which then covers all of it. Passes are throttled (never one per message) and the last one comes soon after
// the input stops, so the final findings follow the last byte closely.

export interface PassClock {
  now(): number;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export interface PassPolicy {
  /** Input this long quiet counts as stopped; a burst is also read this long before its first pass. */
  quietMs: number;
  /** Passes never start closer together than this (measured from the end of the last one). */
  floorMs: number;
}

export const DEFAULT_POLICY: PassPolicy = { quietMs: 24, floorMs: 50 };

export interface PassTimes {
  /** When the first and the latest input since the last pass started arrived. */
  firstInput: number;
  lastInput: number;
  /** When the last pass ended, and what it cost (ms). */
  lastEnd: number;
  lastCost: number;
}

/**
 * When the next pass may start. While input keeps coming: twice the last cost after it (analysis takes at most a
 * third of the time, the rest folds deltas and answers the table). Once input is quiet: as soon as the floor
 * allows, so the findings follow the last byte by about one pass. A burst after a quiet spell is read for quietMs
 * first.
 */
export function nextPassAt(t: PassTimes, policy: PassPolicy = DEFAULT_POLICY): number {
  const earliest = t.lastEnd + policy.floorMs;
  const throttled = t.lastEnd + Math.max(policy.floorMs, 2 * t.lastCost);
  const quiet = t.lastInput + policy.quietMs;
  return Math.max(earliest, t.firstInput + policy.quietMs, Math.min(quiet, throttled));
}

export interface PassScheduler {
  /** Something changed: a pass will cover it. */
  input(): void;
  /** Runs the pass now if anything is waiting for one (export wants findings of every record). */
  flush(): void;
  /** True when input arrived that no pass has covered yet. */
  readonly pending: boolean;
  stop(): void;
}

export function createPassScheduler(
  run: () => void,
  clock: PassClock,
  policy: PassPolicy = DEFAULT_POLICY,
): PassScheduler {
  const times: PassTimes = { firstInput: 0, lastInput: 0, lastEnd: -Infinity, lastCost: 0 };
  let dirty = false;
  let running = false;
  let stopped = false;
  let timer: unknown;

  const arm = () => {
    if (timer !== undefined || running || !dirty || stopped) return;
    timer = clock.setTimer(fire, Math.max(0, nextPassAt(times, policy) - clock.now()));
  };

  const pass = () => {
    running = true;
    dirty = false;
    const begun = clock.now();
    try {
      run();
    } finally {
      running = false;
      times.lastEnd = clock.now();
      times.lastCost = times.lastEnd - begun;
      arm(); // input folded during the pass gets the next one
    }
  };

  function fire(): void {
    timer = undefined;
    if (!dirty || stopped) return;
    // Input that arrived since the timer was set may have moved the start later (the quiet spell began again).
    if (nextPassAt(times, policy) > clock.now()) {
      arm();
      return;
    }
    pass();
  }

  return {
    input() {
      const now = clock.now();
      if (!dirty) times.firstInput = now;
      times.lastInput = now;
      dirty = true;
      arm();
    },
    flush() {
      if (!dirty || running) return;
      if (timer !== undefined) clock.clearTimer(timer);
      timer = undefined;
      pass();
    },
    get pending() {
      return dirty;
    },
    stop() {
      stopped = true;
      if (timer !== undefined) clock.clearTimer(timer);
      timer = undefined;
    },
  };
}
