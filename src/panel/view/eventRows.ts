// Panel (pure): the cells of one events-table row.
import type { EventView } from '../../core/model/types';
import type { Severity } from '../../core/guard/types';
import { dataLengthOf, envelopesOf } from './events';
import { describeMessages, formatBytes, formatRelMs } from './format';
import type { PanelView } from './model';

export interface EventCells {
  time: string;
  stream: string;
  /** 0 on the stream's first connection, n on its n-th resumption. */
  resumption: number;
  id: string;
  type: string;
  size: string;
  method: string;
  /** "priming" (empty data), "bad" (not one JSON-RPC message) or "" */
  methodKind: 'priming' | 'bad' | '';
  findings: Array<{ index: number; rule: string; severity: Severity; message: string }>;
}

export function eventCells(view: PanelView, event: EventView, shown: Record<Severity, boolean>): EventCells {
  const start = view.sessionsByKey.get(event.sessionKey)?.startTime ?? view.analysis.startTime;
  const findings = (view.findingsByEvent.get(event.index) ?? [])
    .map((index) => ({ index, finding: view.analysis.findings[index] }))
    .filter((f) => f.finding !== undefined && shown[f.finding.severity])
    .map(({ index, finding }) => ({
      index,
      rule: finding!.rule,
      severity: finding!.severity,
      message: finding!.message,
    }));
  let method = describeMessages(envelopesOf(event));
  let methodKind: EventCells['methodKind'] = '';
  if (event.parseError !== undefined) {
    method = 'not a JSON-RPC message';
    methodKind = 'bad';
  } else if (dataLengthOf(event) === 0) {
    method = event.hasId ? 'priming' : 'empty';
    methodKind = 'priming';
  }
  return {
    time: formatRelMs(event.time - start),
    stream: event.streamId,
    resumption: Math.max(0, view.streamsById.get(event.streamId)?.connectionIds.indexOf(event.connectionId) ?? 0),
    id: event.hasId ? event.lastEventId : '',
    type: event.type,
    size: formatBytes(event.end - event.start),
    method,
    methodKind,
    findings,
  };
}

/** Position of an event index in a list of event indexes sorted ascending, or -1. */
export function positionOf(rows: ArrayLike<number>, eventIndex: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((rows[mid] as number) < eventIndex) lo = mid + 1;
    else hi = mid;
  }
  return rows[lo] === eventIndex ? lo : -1;
}
