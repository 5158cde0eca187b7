// Panel: the detail pane for whatever is selected: a finding (with its rule's doc), an event, or a connection.
// Its content comes from the worker for the selection on screen (DetailData); until it arrives, the last one stays.
import { memo } from 'preact/compat';
import { useState } from 'preact/hooks';
import type { ConnectionTab, DetailData, EventRef, Selection } from '../analysis/messages';
import type { WholePayload } from '../hooks/useAnalysis';
import { ConnectionSummary, ConnectionTabBody } from './ConnectionDetail';
import { EventSummary, EventTabBody, type EventTab } from './EventDetail';
import { FindingSummary } from './FindingSummary';
import { Icon } from './Icon';
import { RuleDoc } from './RuleDoc';

type Tab = 'finding' | EventTab | ConnectionTab;

const tabLabels: Record<Tab, string> = {
  finding: 'Finding',
  preview: 'Preview',
  raw: 'Raw',
  bytes: 'Bytes',
  headers: 'Headers',
  payload: 'Payload',
  tail: 'Torn tail',
};

export interface DetailPaneProps {
  selection: Selection | undefined;
  detail: DetailData | undefined;
  whole: WholePayload | undefined;
  loading: string | undefined;
  onLoadWhole(event: EventRef): void;
  onSelectConnection(id: string): void;
  onSelectEvent(event: EventRef): void;
  /** Given where the detail is stacked under the table (narrow DevTools): closes it by clearing the selection. */
  onClose?: () => void;
}

export const DetailPane = memo(function DetailPane(p: DetailPaneProps) {
  const { detail, onSelectConnection, onSelectEvent, onClose } = p;
  // The tab the user picked, and for which finding: a newly selected finding opens on its explanation.
  const [choice, setChoice] = useState<{ tab: Tab; finding?: string }>({ tab: 'preview' });
  // The detail of another selection stays until this one's arrives (one worker round trip), then is replaced.
  const shown = p.selection && detail && detail.for !== '' ? detail : undefined;
  const finding = shown?.finding;
  const event = shown?.event;
  const connection = shown?.connection;

  const tabs: Tab[] = [];
  if (finding) tabs.push('finding');
  if (event) tabs.push('preview', 'raw', 'bytes');
  else if (connection) tabs.push(...connection.tabs);
  if (tabs.length === 0) {
    return (
      <aside class="detail" aria-label="Details">
        <p class="detail-empty">Select an event, a connection on the timeline, or a finding.</p>
      </aside>
    );
  }
  const preferred: Tab = finding && choice.finding !== finding.key ? 'finding' : choice.tab;
  const tab: Tab = tabs.includes(preferred) ? preferred : (tabs[0] as Tab);
  const pick = (t: Tab) => setChoice({ tab: t, ...(finding ? { finding: finding.key } : {}) });
  return (
    <aside class="detail" aria-label="Details">
      <div class="detail-head">
        {finding ? (
          <FindingSummary finding={finding} onSelectEvent={onSelectEvent} onSelectConnection={onSelectConnection} />
        ) : null}
        {event ? <EventSummary event={event} onSelectConnection={onSelectConnection} /> : null}
        {connection ? <ConnectionSummary c={connection} onSelectConnection={onSelectConnection} /> : null}
      </div>
      <div class="tabs" role="tablist">
        {tabs.map((t) => (
          <button
            type="button"
            role="tab"
            key={t}
            aria-selected={t === tab}
            class={`tab ${t === tab ? 'selected' : ''}`}
            onClick={() => pick(t)}
          >
            {tabLabels[t]}
          </button>
        ))}
        {onClose ? (
          <button
            type="button"
            class="tb-button tab-close"
            title="Close the details"
            aria-label="Close the details"
            onClick={onClose}
          >
            <Icon name="close" />
          </button>
        ) : null}
      </div>
      <div class="tab-body" role="tabpanel">
        {tab === 'finding' && finding ? <RuleDoc id={finding.rule} /> : null}
        {event && (tab === 'preview' || tab === 'raw' || tab === 'bytes') ? (
          <EventTabBody event={event} tab={tab} whole={p.whole} loading={p.loading} onLoadWhole={p.onLoadWhole} />
        ) : null}
        {connection && (tab === 'headers' || tab === 'payload' || tab === 'tail') ? (
          <ConnectionTabBody c={connection} tab={tab} />
        ) : null}
      </div>
    </aside>
  );
});
