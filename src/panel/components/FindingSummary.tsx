// Panel: the head of a selected finding: severity, rule id, message, and what it points at.
import type { Finding } from '../../core/guard/types';
import type { FindingTarget } from '../view/model';
import { SeverityIcon } from './Icon';

export interface FindingSummaryProps {
  finding: Finding;
  target: FindingTarget | undefined;
  onSelectEvent(index: number): void;
  onSelectConnection(id: string): void;
}

export function FindingSummary({ finding, target, onSelectEvent, onSelectConnection }: FindingSummaryProps) {
  const eventIndex = target?.eventIndex;
  const connectionId = target?.connectionId;
  return (
    <div class={`finding-head sev-${finding.severity}`}>
      <div class="finding-title">
        <SeverityIcon severity={finding.severity} />
        <span class="mono rule-id">{finding.rule}</span>
        <span class="dim">{finding.severity}</span>
      </div>
      <p class="finding-message selectable">{finding.message}</p>
      <p class="finding-where">
        {eventIndex !== undefined ? (
          <button type="button" class="link" onClick={() => onSelectEvent(eventIndex)}>
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
        {finding.byteOffset !== undefined ? (
          <span class="dim num">byte {finding.byteOffset.toLocaleString('en-US')}</span>
        ) : null}
      </p>
    </div>
  );
}
