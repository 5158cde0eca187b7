// Runs in Node (the replay server): when each recorded exchange's live counterpart arrived, so a chunk that waits
// for it (the core's gates) is sent only after it, as long after it as it came in the recording.
import { performance } from 'node:perf_hooks';
import type { Gate } from '../core/replay/planner';

export class Arrivals {
  private readonly times = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  /** The live request matched recorded exchange `id`, now. */
  arrived(id: string): void {
    if (this.times.has(id)) return;
    this.times.set(id, performance.now());
    for (const wake of this.waiting.get(id) ?? []) wake();
    this.waiting.delete(id);
  }

  /** Resolves with the monotonic time (ms) the gates allow: each gate's arrival plus its recorded lag, scaled. */
  async after(gates: readonly Gate[], scale: number): Promise<number> {
    let due = 0;
    for (const gate of gates) {
      const time = this.times.get(gate.exchangeId) ?? (await this.wait(gate.exchangeId));
      due = Math.max(due, time + gate.afterMs * scale);
    }
    return due;
  }

  private wait(id: string): Promise<number> {
    return new Promise((resolve) => {
      const list = this.waiting.get(id) ?? [];
      list.push(() => resolve(this.times.get(id) ?? performance.now()));
      this.waiting.set(id, list);
    });
  }
}
