// Panel: the summary line at the bottom, as in the Network panel, plus what the panel could not capture.
// Its data attributes say how far the panel has caught up (tests compare them with what the page's own fetch saw):
// data-wire counts what the worker holds; data-analysis is `current` once the worker's latest view reflects every
// record change this thread has sent it, `behind` until then; data-events is the events of that view, all sessions.
import { useEffect, useState } from 'preact/hooks';
import type { AnalysisView } from '../hooks/useAnalysis';
import type { PanelState } from '../state/store';
import { formatBytes, formatCount } from '../view/format';
import { redactUrl } from '../../protocol/redact';

export function StatusBar({
  state,
  analysis,
  revealSecrets,
}: {
  state: PanelState;
  analysis: Pick<AnalysisView, 'view' | 'held' | 'client' | 'onSent'>;
  /** The user's opt-in: the page URL as it is; otherwise its credentials are tagged (docs/redaction.md). */
  revealSecrets: boolean;
}) {
  const { view, held, client, onSent } = analysis;
  // Only this line re-renders per forwarded message: what was sent is its state, not the panel's.
  const [sent, setSent] = useState(client.recordsSeq);
  useEffect(() => {
    setSent(client.recordsSeq);
    return onSent(setSent);
  }, [client, onSent]);
  const parts: string[] = [];
  if (view) {
    const t = view.totals;
    parts.push(`${t.sessions} session${t.sessions === 1 ? '' : 's'}`);
    parts.push(`${t.connections} connection${t.connections === 1 ? '' : 's'}`);
    const total = formatCount(t.events);
    parts.push(
      view.shownEvents === t.events ? `${total} events` : `${formatCount(view.shownEvents)} / ${total} events`,
    );
    parts.push(`analysed in ${view.costMs < 10 ? view.costMs.toFixed(1) : Math.round(view.costMs)} ms`);
  }
  const orphans = held?.orphanDeltas ?? 0;
  const gaps = held?.gapBytes ?? { evicted: 0, unacknowledged: 0, 'panel-budget': 0 };
  const budget = held?.budget;
  // The background names the page from the browser's tab, which the tap's redaction never saw.
  const pageUrl = state.pageUrl && !revealSecrets ? redactUrl(state.pageUrl) : state.pageUrl;
  return (
    <div
      class="status-bar num"
      data-testid="status-bar"
      data-wire={held ? JSON.stringify(held.wire) : undefined}
      data-pending-bodies={held?.pendingBodies ?? 0}
      data-analysis={view && view.seq >= sent ? 'current' : 'behind'}
      data-events={view?.totals.events}
      data-held-bytes={budget?.heldBytes}
      data-budget-bytes={budget?.limitBytes}
      data-held-connections={held?.connections}
      data-budget-connections={budget?.limitConnections}
    >
      <span>{parts.join(' · ')}</span>
      {pageUrl && state.source.kind === 'live' ? (
        <span class="dim status-page" title={pageUrl}>
          {pageUrl}
        </span>
      ) : null}
      {state.droppedBytes > 0 ? (
        <span class="status-warn" data-drop="evicted-connections">
          The tab's buffer evicted{' '}
          {state.droppedConnections > 0
            ? `${state.droppedConnections} connection${state.droppedConnections === 1 ? '' : 's'} (${formatBytes(state.droppedBytes)})`
            : formatBytes(state.droppedBytes)}{' '}
          before this panel attached: reload the page with the panel open to capture them.
        </span>
      ) : null}
      {gaps.evicted > 0 ? (
        <span class="status-warn" data-drop="evicted-gap">
          {formatBytes(gaps.evicted)} of big streams was evicted from the tab's buffer before this panel attached (shown
          as gaps).
        </span>
      ) : null}
      {gaps.unacknowledged > 0 ? (
        <span class="status-warn" data-drop="unacknowledged-gap">
          {formatBytes(gaps.unacknowledged)} could not be re-sent after the extension's worker restarted (shown as
          gaps).
        </span>
      ) : null}
      {budget && (budget.droppedConnections > 0 || gaps['panel-budget'] > 0) ? (
        <span
          class="status-warn"
          data-drop="panel-budget"
          data-dropped-connections={budget.droppedConnections}
          data-gapped-connections={budget.gappedConnections}
          title={`The panel keeps at most ${formatBytes(budget.limitBytes)} and ${formatCount(budget.limitConnections)} connections per tab (⚙); the oldest finished connections go first.`}
        >
          Over the panel's budget:{' '}
          {[
            budget.droppedConnections > 0
              ? `${formatCount(budget.droppedConnections)} connection${budget.droppedConnections === 1 ? '' : 's'} dropped (${formatBytes(budget.droppedBytes)})`
              : '',
            gaps['panel-budget'] > 0
              ? `${formatBytes(gaps['panel-budget'])} of ${formatCount(budget.gappedConnections)} connection${budget.gappedConnections === 1 ? '' : 's'} given up (shown as gaps)`
              : '',
          ]
            .filter(Boolean)
            .join(', ')}
          , oldest finished first.
        </span>
      ) : null}
      {orphans > 0 ? (
        <span class="status-warn">
          {orphans} updates of connections this panel never saw start (evicted from the tab's buffer before it attached)
          were dropped.
        </span>
      ) : null}
    </div>
  );
}
