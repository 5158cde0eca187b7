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
    >
      <span>{parts.join(' · ')}</span>
      {pageUrl && state.source.kind === 'live' ? (
        <span class="dim status-page" title={pageUrl}>
          {pageUrl}
        </span>
      ) : null}
      {state.droppedBytes > 0 ? (
        <span class="status-warn">
          The tab's buffer dropped {formatBytes(state.droppedBytes)} before the panel attached: reload the page to
          capture from the start.
        </span>
      ) : null}
      {orphans > 0 ? <span class="status-warn">{orphans} updates for unknown connections were dropped.</span> : null}
    </div>
  );
}
