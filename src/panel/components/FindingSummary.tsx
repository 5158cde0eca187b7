// Panel: the head of a selected finding: severity, rule id, message, and what it points at.
import { formatCount } from '../view/format';
import type { EventRef, FindingDetailData } from '../analysis/messages';
import { SeverityIcon } from './Icon';

export interface FindingSummaryProps {
  finding: FindingDetailData;
  onSelectEvent(event: EventRef): void;
  onSelectConnection(id: string): void;
}

export function FindingSummary({ finding, onSelectEvent, onSelectConnection }: FindingSummaryProps) {
  const event = finding.target.event;
  const connectionId = finding.target.connectionId;
  return (
    <div class={`finding-head sev-${finding.severity}`}>
      <div class="finding-title">
        <SeverityIcon severity={finding.severity} />
        <span class="mono rule-id">{finding.rule}</span>
        <span class="dim">{finding.severity}</span>
      </div>
      <p class="finding-message selectable">{finding.message}</p>
      <p class="finding-where">
        {event !== undefined ? (
          <button type="button" class="link" onClick={() => onSelectEvent(event)}>
            Show event
          </button>
        ) : null}
        {connectionId !== undefined ? (
          <button
            type="button"
            class="link finding-conn"
            title={`Show connection ${connectionId}`}
            onClick={() => onSelectConnection(connectionId)}
          >
            Connection <span class="mono">{connectionId}</span>
          </button>
        ) : null}
        {finding.byteOffset !== undefined ? <span class="dim num">byte {formatCount(finding.byteOffset)}</span> : null}
      </p>
    </div>
  );
}
