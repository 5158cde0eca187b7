// Panel: the summary line at the bottom, as in the Network panel, plus what the panel could not capture.
// Its data attributes say how far the panel has caught up (tests compare them with what the page's own fetch saw).
import { useMemo } from 'preact/hooks';
import type { PanelState } from '../state/store';
import { formatBytes } from '../view/format';
import { pendingBodies, wireSignature } from '../view/wireSignature';
import type { Derived } from '../hooks/useDerived';

export function StatusBar({
  state,
  derived,
  shownEvents,
}: {
  state: PanelState;
  derived: Derived | undefined;
  shownEvents: number;
}) {
  const a = derived?.view.analysis;
  const wire = useMemo(() => JSON.stringify(wireSignature(state.records.connections)), [state.records]);
  const pending = useMemo(() => pendingBodies(state.records.connections), [state.records]);
  const parts: string[] = [];
  if (a) {
    parts.push(`${a.sessions.length} session${a.sessions.length === 1 ? '' : 's'}`);
    parts.push(`${a.connections.length} connection${a.connections.length === 1 ? '' : 's'}`);
    const total = a.events.length.toLocaleString('en-US');
    parts.push(
      shownEvents === a.events.length ? `${total} events` : `${shownEvents.toLocaleString('en-US')} / ${total} events`,
    );
    parts.push(`analysed in ${derived.costMs < 10 ? derived.costMs.toFixed(1) : Math.round(derived.costMs)} ms`);
  }
  return (
    <div
      class="status-bar num"
      data-testid="status-bar"
      data-wire={wire}
      data-pending-bodies={pending}
      data-analysis={derived?.records === state.records ? 'current' : 'behind'}
    >
      <span>{parts.join(' · ')}</span>
      {state.pageUrl && state.source.kind === 'live' ? (
        <span class="dim status-page" title={state.pageUrl}>
          {state.pageUrl}
        </span>
      ) : null}
      {state.droppedBytes > 0 ? (
        <span class="status-warn">
          The tab's buffer dropped {formatBytes(state.droppedBytes)} before the panel attached: reload the page to
          capture from the start.
        </span>
      ) : null}
      {state.records.orphanDeltas > 0 ? (
        <span class="status-warn">{state.records.orphanDeltas} updates for unknown connections were dropped.</span>
      ) : null}
    </div>
  );
}
