// Panel: the detail pane for whatever is selected: a finding (with its rule's doc), an event, or a connection.
import { useState } from 'preact/hooks';
import type { ConnectionView, EventView } from '../../core/model/types';
import type { PanelView } from '../view/model';
import type { Resolved } from '../view/selection';
import { ConnectionSummary, ConnectionTabBody, connectionTabs, type ConnectionTab } from './ConnectionDetail';
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
  view: PanelView;
  resolved: Resolved;
  onSelectConnection(id: string): void;
  onSelectEvent(index: number): void;
  /** Given where the detail is stacked under the table (narrow DevTools): closes it by clearing the selection. */
  onClose?: () => void;
}

export function DetailPane({ view, resolved, onSelectConnection, onSelectEvent, onClose }: DetailPaneProps) {
  // The tab the user picked, and for which finding: a newly selected finding opens on its explanation.
  const [choice, setChoice] = useState<{ tab: Tab; finding?: number }>({ tab: 'preview' });
  const { findingIndex, eventIndex, connectionId } = resolved;
  const finding = findingIndex !== undefined ? view.analysis.findings[findingIndex] : undefined;
  const target = findingIndex !== undefined ? view.findingTargets[findingIndex] : undefined;
  const event: EventView | undefined = eventIndex !== undefined ? view.analysis.events[eventIndex] : undefined;
  // With an event selected, its connection shows in the event summary instead.
  const connection: ConnectionView | undefined =
    !event && connectionId !== undefined ? view.connectionsById.get(connectionId) : undefined;

  const tabs: Tab[] = [];
  if (finding) tabs.push('finding');
  if (event) tabs.push('preview', 'raw', 'bytes');
  else if (connection) tabs.push(...connectionTabs(connection));
  if (tabs.length === 0) {
    return (
      <aside class="detail" aria-label="Details">
        <p class="detail-empty">Select an event, a connection on the timeline, or a finding.</p>
      </aside>
    );
  }
  const preferred: Tab = finding && choice.finding !== findingIndex ? 'finding' : choice.tab;
  const tab: Tab = tabs.includes(preferred) ? preferred : (tabs[0] as Tab);
  const pick = (t: Tab) => setChoice({ tab: t, ...(findingIndex !== undefined ? { finding: findingIndex } : {}) });
  return (
    <aside class="detail" aria-label="Details">
      <div class="detail-head">
        {finding ? (
          <FindingSummary
            finding={finding}
            target={target}
            onSelectEvent={onSelectEvent}
            onSelectConnection={onSelectConnection}
          />
        ) : null}
        {event ? <EventSummary view={view} event={event} onSelectConnection={onSelectConnection} /> : null}
        {connection ? <ConnectionSummary view={view} c={connection} onSelectConnection={onSelectConnection} /> : null}
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
          <EventTabBody view={view} event={event} tab={tab} />
        ) : null}
        {connection && (tab === 'headers' || tab === 'payload' || tab === 'tail') ? (
          <ConnectionTabBody c={connection} tab={tab} />
        ) : null}
      </div>
    </aside>
  );
}
