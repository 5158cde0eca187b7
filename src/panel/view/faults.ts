// Panel (pure): where the Break menu's faults struck, and which fault provoked a finding. A fault's mark sits on the
// record it struck (ConnectionRecord.faults); a finding follows the latest fault of its session that struck before
// it (or on its own connection): what the page saw there was that fault's doing, and what its client did next.
import type { FaultMark } from '../../core/capture/model';
import type { PanelView } from './model';

export interface StruckFault {
  connectionId: string;
  sessionKey: string;
  mark: FaultMark;
}

/** Every mark of the analysed connections, in the order they struck. */
export function struckFaults(view: PanelView): StruckFault[] {
  const out: StruckFault[] = [];
  for (const c of view.analysis.connections) {
    for (const mark of c.record.faults ?? []) out.push({ connectionId: c.id, sessionKey: c.sessionKey, mark });
  }
  return out.sort((a, b) => a.mark.t - b.mark.t);
}

/** Where a finding points, as far as linking it to a fault goes. */
export interface FindingPlace {
  sessionKey?: string;
  connectionId?: string;
  time?: number;
}

/** The fault that provoked a finding there: the latest in its session that struck before it or on its connection. */
export function provokingFault(faults: readonly StruckFault[], place: FindingPlace): StruckFault | undefined {
  let found: StruckFault | undefined;
  for (const fault of faults) {
    if (fault.sessionKey !== place.sessionKey) continue;
    const before = place.time === undefined || fault.mark.t <= place.time;
    if (before || fault.connectionId === place.connectionId) found = fault;
  }
  return found;
}
