// Panel (pure): the requests waiting on open connections, as the findings pane lists them with a running clock.
import { describeId } from '../../core/guard/facts';
import { waitingRequests } from '../../core/guard/waiting';
import type { WaitingItem } from '../analysis/messages';
import type { PanelView } from './model';

/** At most this many are listed (a page that fires hundreds of calls at once shows the longest waits). */
const MAX_WAITING = 20;

export function waitingItems(view: PanelView): WaitingItem[] {
  return waitingRequests(view.analysis)
    .sort((a, b) => b.waitedMs - a.waitedMs)
    .slice(0, MAX_WAITING)
    .map((w) => ({
      connectionId: w.current.id,
      label: `${w.method} ${describeId(w.id)}`,
      waitedMs: w.waitedMs,
      quietMs: w.quietMs,
      silentMs: w.silentMs,
    }));
}
