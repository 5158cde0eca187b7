// Page MAIN world (pure): a fault's strike in words, for its mark on the record (the panel shows it as it is).
import type { FaultReport } from '../../core/fault/planner';

export function describeStrike(report: FaultReport): string {
  const d = report.detail;
  const id = (value: unknown): string => (typeof value === 'string' ? value : 'none');
  switch (report.action) {
    case 'cut':
      return d['midEvent'] === true
        ? `cut ${String(d['bytesIntoFrame'])} bytes into the event with id ${id(d['tornEventId'])}; last whole event: ${id(d['lastCompleteEventId'])}`
        : `cut after the event with id ${id(d['lastCompleteEventId'])}`;
    case 'skip-event':
      return `dropped the replayed event with id ${id(d['eventId'])}`;
    case 'repeat-event':
      return d['seen'] === true
        ? `re-delivered the cursor's event ${id(d['eventId'])} first`
        : `the cursor's event ${id(d['eventId'])} was never delivered here: nothing re-sent`;
    case 'reject-resume':
      return `answered the resume from ${id(d['lastEventId'])} with ${String(d['status'])}, server not contacted`;
    case 'silent-resume':
      return `answered the resume from ${id(d['lastEventId'])} with 200 and keep-alives only, server not contacted`;
    case 'close-resume':
      return `answered the resume from ${id(d['lastEventId'])} with 200, a new priming id ${id(d['primingId'])} and the end, server not contacted`;
    default:
      return report.action;
  }
}
