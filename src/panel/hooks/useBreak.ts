// Panel: the Break menu's armed faults. Arming sends them to the tab's tap (panel -> background -> bridge -> tap);
// a fault leaves the banner once its mark arrives (the tap disarms it when it fires), but one that strikes every
// time (close-resumes) stays until Disarm; a navigation disarms all
// (the new document's tap starts unarmed), and so does closing the panel (the background tells the tap).
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { FaultArm } from '../../protocol/break';
import type { FaultItem } from '../analysis/messages';
import type { PanelTransport } from '../transport';
import { strikesEveryTime } from '../view/breakMenu';

export interface ArmedFault {
  spec: string;
  /** Times it struck so far. */
  strikes: number;
  /** It strikes every time until disarmed (close-resumes), so striking does not end it. */
  untilDisarmed: boolean;
}

export interface BreakState {
  /** Faults of the current arming with whether each struck yet; empty when nothing is armed. */
  armed: ArmedFault[];
  /** sending: not answered yet; armed: the page's tap holds them; absent: no tap took them (reload the page). */
  status: 'sending' | 'armed' | 'absent';
  arm(specs: string[]): void;
  disarm(): void;
}

let arms = 0;

export function useBreak(
  transport: PanelTransport,
  faults: readonly FaultItem[],
  navigations: number,
  ack: { armId: string | null; taken: boolean } | undefined,
): BreakState {
  const [current, setCurrent] = useState<FaultArm | null>(null);
  const { tabId } = transport;
  const send = useCallback(
    (arm: FaultArm | null) => {
      if (tabId !== undefined) transport.send({ type: 'break', tabId, arm });
    },
    [transport, tabId],
  );
  // A navigation (or reload) brought a fresh tap, armed with nothing.
  useEffect(() => setCurrent(null), [navigations]);

  const armed = (current?.faults ?? []).map((spec) => ({
    spec,
    strikes: faults.filter((f) => f.arm === current?.armId && f.fault === spec).length,
    untilDisarmed: strikesEveryTime(spec),
  }));
  const allStruck = armed.length > 0 && armed.every((f) => f.strikes > 0 && !f.untilDisarmed);
  useEffect(() => {
    if (allStruck) setCurrent(null);
  }, [allStruck]);

  const arm = useCallback(
    (specs: string[]) => {
      if (specs.length === 0) return;
      const next = { armId: `a${Date.now().toString(36)}${++arms}`, faults: specs };
      setCurrent(next);
      send(next);
    },
    [send],
  );
  const disarm = useCallback(() => {
    setCurrent(null);
    send(null);
  }, [send]);
  const answered = current !== null && ack?.armId === current.armId;
  const status = !answered ? 'sending' : ack.taken ? 'armed' : 'absent';
  return { armed: allStruck ? [] : armed, status, arm, disarm };
}
