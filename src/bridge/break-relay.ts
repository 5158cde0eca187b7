// Isolated world: relays the Break menu's arm to the tap over its port and waits for the tap's answer, so the
// background (and the panel's banner) learn that the faults are armed in the page, not merely sent.
import type { FaultArm } from '../protocol/break';

/** A tap that does not answer by then is not there (a page loaded before the extension, say). */
const ANSWER_MS = 2000;

export class BreakRelay {
  private waiting: ((armId: string | null) => void)[] = [];

  /** Sends the arm with `send`; resolves true once the tap answered with it, false when it did not in time. */
  relay(arm: FaultArm | null, send: (arm: FaultArm | null) => void): Promise<boolean> {
    const want = arm?.armId ?? null;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ANSWER_MS);
      this.waiting.push((armId) => {
        if (armId !== want) return;
        clearTimeout(timer);
        resolve(true);
      });
      send(arm);
    });
  }

  /** The tap's answer (TapToBridge.armed). */
  answered(armId: string | null): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake(armId);
  }
}
