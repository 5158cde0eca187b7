import { describe, expect, it } from 'vitest';
import { createPassScheduler, nextPassAt, type PassClock, type PassPolicy } from './schedule';

/** A clock that moves only when told: timers fire in due order as time is advanced. */
function fakeClock() {
  let now = 0;
  let next = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  const clock: PassClock = {
    now: () => now,
    setTimer(run, ms) {
      const id = next++;
      timers.set(id, { at: now + ms, run });
      return id;
    },
    clearTimer(handle) {
      timers.delete(handle as number);
    },
  };
  /** Moves time to `to`, firing due timers in order (a timer may set others). */
  const advance = (to: number) => {
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= to).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = Math.max(now, due[1].at);
      due[1].run();
    }
    now = Math.max(now, to);
  };
  const spend = (ms: number) => {
    now += ms;
  };
  return { clock, advance, spend, pending: () => timers.size };
}

const policy: PassPolicy = { quietMs: 24, floorMs: 50 };

/**
 * A stream of inputs numbered 1..n and a pass that records which inputs it covered. Inputs that arrive while a
 * pass runs are queued, as in a worker, and delivered when it returns.
 */
function harness(passCost: number) {
  const time = fakeClock();
  let received = 0;
  let running = false;
  const queued: number[] = [];
  const passes: Array<{ covers: number; start: number }> = [];
  const scheduler = createPassScheduler(
    () => {
      running = true;
      passes.push({ covers: received, start: time.clock.now() });
      time.spend(passCost);
      running = false;
    },
    time.clock,
    policy,
  );
  const arrive = (n: number) => {
    if (running) queued.push(n);
    else {
      received = n;
      scheduler.input();
    }
  };
  return { time, scheduler, passes, arrive, received: () => received, queued };
}

describe('when the analysis pass runs', () => {
  it('a burst of messages gets one pass, after the burst, covering all of it', () => {
    const h = harness(5);
    for (let n = 1; n <= 100; n++) h.arrive(n);
    h.time.advance(1000);
    expect(h.passes).toEqual([{ covers: 100, start: 24 }]);
  });

  it('never runs a pass per message while they keep coming, and each pass covers every message before it', () => {
    const h = harness(40);
    let n = 0;
    for (let t = 0; t < 2000; t += 16) {
      h.time.advance(t);
      h.arrive(++n);
    }
    h.time.advance(5000);
    expect(h.passes.length).toBeGreaterThan(1);
    expect(h.passes.length).toBeLessThan(n / 5);
    // Causality: a pass covers exactly what had arrived when it started, and later passes cover more.
    expect(h.passes.map((p) => p.covers)).toEqual(h.passes.map((p) => Math.min(n, Math.ceil(p.start / 16))));
    const covers = h.passes.map((p) => p.covers);
    expect(covers).toEqual([...new Set(covers)].sort((a, b) => a - b));
    // The last pass covers the last message.
    expect(h.passes.at(-1)!.covers).toBe(n);
  });

  it('while messages keep coming, spends at most about a third of the time in passes', () => {
    const h = harness(200);
    for (let t = 0; t < 10_000; t += 16) {
      h.time.advance(t);
      h.arrive(t);
    }
    const starts = h.passes.map((p) => p.start);
    for (let i = 1; i < starts.length - 1; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(3 * 200);
  });

  it('what arrives during a pass waits for it, then gets exactly one more pass that covers all of it', () => {
    const time = fakeClock();
    let received = 0;
    const order: string[] = [];
    const scheduler = createPassScheduler(
      () => {
        order.push(`pass covering ${received}`);
        if (received === 1) {
          // Messages 2..4 arrive while this pass runs: the worker folds them only after it returns.
          time.spend(100);
          queueMicrotaskLike(() => {
            for (const n of [2, 3, 4]) {
              received = n;
              order.push(`message ${n}`);
              scheduler.input();
            }
          });
        }
      },
      time.clock,
      policy,
    );
    const later: Array<() => void> = [];
    const queueMicrotaskLike = (run: () => void) => later.push(run);
    received = 1;
    order.push('message 1');
    scheduler.input();
    time.advance(24);
    later.splice(0).forEach((run) => run());
    time.advance(10_000);
    expect(order).toEqual(['message 1', 'pass covering 1', 'message 2', 'message 3', 'message 4', 'pass covering 4']);
  });

  it('runs nothing when nothing arrived, and flush runs a waiting pass at once', () => {
    const h = harness(5);
    h.time.advance(1000);
    expect(h.passes).toEqual([]);
    h.arrive(1);
    expect(h.scheduler.pending).toBe(true);
    h.scheduler.flush();
    expect(h.passes).toEqual([{ covers: 1, start: 1000 }]);
    expect(h.scheduler.pending).toBe(false);
    h.time.advance(1000);
    expect(h.passes).toHaveLength(1);
  });

  it('stop cancels the pass that was due', () => {
    const h = harness(5);
    h.arrive(1);
    h.scheduler.stop();
    h.time.advance(1000);
    expect(h.passes).toEqual([]);
    expect(h.time.pending()).toBe(0);
  });
});

describe('nextPassAt', () => {
  const idle = { lastEnd: -Infinity, lastCost: 0 };

  it('reads a burst for quietMs after its first message, and no longer once input stops', () => {
    expect(nextPassAt({ ...idle, firstInput: 1000, lastInput: 1000 }, policy)).toBe(1024);
    // Messages that keep coming do not push the first pass of a burst past the throttle.
    expect(nextPassAt({ ...idle, firstInput: 1000, lastInput: 1500 }, policy)).toBe(1024);
  });

  it('waits twice the last cost while input continues, and only the floor once it is quiet', () => {
    const busy = { firstInput: 1010, lastInput: 1500, lastEnd: 1000, lastCost: 200 };
    expect(nextPassAt(busy, policy)).toBe(1400);
    // Quiet since 1300: the pass need not wait for the throttle.
    expect(nextPassAt({ ...busy, lastInput: 1300 }, policy)).toBe(1324);
    expect(nextPassAt({ firstInput: 1001, lastInput: 1001, lastEnd: 1000, lastCost: 5 }, policy)).toBe(1050);
  });
});
