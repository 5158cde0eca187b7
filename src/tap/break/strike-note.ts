// Page MAIN world (pure): a fault's strike in words, for its mark on the record (the panel shows it as it is).
import type { FaultReport } from '../../core/fault/planner';

const seconds = (ms: unknown): string => (typeof ms === 'number' ? `${ms / 1000} s` : '?');

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
    case 'idle-cut':
      return `cut after ${seconds(d['idleMs'])} with no byte sent, ${
        d['midEvent'] === true ? `${String(d['bytesIntoFrame'])} bytes into an event` : 'between events'
      }; last whole event: ${id(d['lastCompleteEventId'])}`;
    case 'stall':
      return `stopped forwarding for ${String(d['ms'])} ms before the event that carries data first`;
    case 'buffer':
      return d['released'] === true
        ? `held ${String(d['events'])} events (${String(d['bytes'])} bytes)${d['head'] === 'held' ? ' and the head' : ''} until the end, then sent them at once`
        : `held ${String(d['bytes'])} bytes; the stream ended otherwise, they never arrived`;
    default:
      return report.action;
  }
}
