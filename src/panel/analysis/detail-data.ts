// Panel worker (pure): what the detail pane shows for the selection, with payloads cut at the truncation size;
// the whole of an event's payload goes only on request ("show all").
import type { ConnectionView, EventView } from '../../core/model/types';
import { connectionTabs } from '../view/connectionTabs';
import { answeredRequests, chunkSpans, eventJson, rawSegments } from '../view/detail';
import { dataLengthOf } from '../view/events';
import { relayedTitle } from '../view/relayed';
import { describeMessage, formatRelMs } from '../view/format';
import { eventAt, findingKey, type PanelView } from '../view/model';
import type { Resolved } from '../view/selection';
import {
  MAX_SPANS_SENT,
  type ConnectionDetailData,
  type DetailData,
  type EventDetailData,
  type EventRef,
  type FindingTargetData,
  type PayloadData,
  type Selection,
  type TextSegment,
  selectionKey,
} from './messages';

export function findingTargetData(view: PanelView, index: number): FindingTargetData {
  const target = view.findingTargets[index] ?? {};
  const event = target.eventIndex !== undefined ? view.analysis.events.at(target.eventIndex) : undefined;
  return {
    ...(target.sessionKey !== undefined ? { sessionKey: target.sessionKey } : {}),
    ...(target.connectionId !== undefined ? { connectionId: target.connectionId } : {}),
    ...(event ? { event: { connectionId: event.connectionId, start: event.start } } : {}),
    ...(target.time !== undefined ? { time: target.time } : {}),
  };
}

export function findEvent(view: PanelView, ref: EventRef): EventView | undefined {
  const connection = view.connectionsById.get(ref.connectionId);
  const index = connection ? eventAt(view.analysis, connection, ref.start) : undefined;
  return index !== undefined ? view.analysis.events.at(index) : undefined;
}

/** An event's raw bytes as text split at chunk boundaries: whole, or its first `limit` bytes. */
export function payloadData(view: PanelView, event: EventView, limit: number): PayloadData {
  const record = view.connectionsById.get(event.connectionId)?.record;
  const bytes = event.end - event.start;
  const truncated = bytes > limit;
  const segments: TextSegment[] = record
    ? rawSegments(record, event.start, truncated ? event.start + limit : event.end)
    : [];
  const json = truncated ? undefined : eventJson(event);
  return { bytes, truncated, segments, ...(json ? { json } : {}) };
}

function eventDetail(view: PanelView, event: EventView, limit: number): EventDetailData {
  const connection = view.connectionsById.get(event.connectionId);
  const start = view.sessionsByKey.get(event.sessionKey)?.startTime ?? view.analysis.startTime;
  const spans = connection ? chunkSpans(connection.record, event.start, event.end) : [];
  return {
    ref: { connectionId: event.connectionId, start: event.start },
    type: event.type,
    hasId: event.hasId,
    lastEventId: event.lastEventId,
    streamId: event.streamId,
    time: formatRelMs(event.time - start),
    ...(event.retry !== undefined ? { retry: event.retry } : {}),
    ...(event.parseError !== undefined ? { problem: event.parseError } : {}),
    empty: dataLengthOf(event) === 0,
    answers: answeredRequests(view, event).map((a) => ({
      text: describeMessage(a.message),
      connectionId: a.connection.id,
    })),
    end: event.end,
    payload: payloadData(view, event, limit),
    spans: spans.slice(0, MAX_SPANS_SENT),
    spansLeftOff: Math.max(0, spans.length - MAX_SPANS_SENT),
    t0: connection?.record.startTime ?? start,
  };
}

function connectionDetail(view: PanelView, c: ConnectionView, limit: number): ConnectionDetailData {
  const r = c.record;
  const start = view.sessionsByKey.get(c.sessionKey)?.startTime ?? view.analysis.startTime;
  const body = r.requestBody;
  const bodyCut = body !== undefined && body.length > limit;
  const messages = c.requestMessages;
  const json =
    !bodyCut && messages.length > 0
      ? { value: messages.length === 1 ? messages[0]?.value : messages.map((m) => m.value) }
      : undefined;
  const tail = c.tail;
  return {
    id: c.id,
    method: r.method,
    url: r.url,
    ...(r.status !== undefined ? { status: r.status, statusText: r.statusText ?? '' } : {}),
    role: c.role,
    ...(c.streamId !== undefined ? { streamId: c.streamId } : {}),
    ...(c.lastEventIdSent !== undefined ? { lastEventIdSent: c.lastEventIdSent } : {}),
    ...(c.resumes !== undefined ? { resumes: c.resumes } : {}),
    ...(c.retryOf !== undefined ? { retryOf: c.retryOf } : {}),
    ...(c.reissueOf !== undefined ? { reissueOf: c.reissueOf } : {}),
    ...(c.taskOf !== undefined ? { taskOf: c.taskOf } : {}),
    ...(c.relayed ? { relayed: relayedTitle(c.relayed) } : {}),
    started: formatRelMs(r.startTime - start),
    ...(r.endTime !== undefined ? { lasted: formatRelMs(r.endTime - r.startTime) } : {}),
    end: r.end,
    ...(r.error !== undefined ? { error: r.error } : {}),
    bytes: c.bytes,
    chunks: r.chunks.length,
    events: c.eventIndexes.length,
    requestHeaders: r.requestHeaders,
    ...(r.responseHeaders ? { responseHeaders: r.responseHeaders } : {}),
    ...(body !== undefined
      ? {
          request: {
            ...(json ? { json } : {}),
            text: bodyCut ? body.slice(0, limit) : body,
            truncated: bodyCut,
            bytes: body.length,
          },
        }
      : {}),
    ...(tail && tail.bytes.length > 0
      ? {
          tail: {
            bytes: tail.bytes.length,
            start: tail.start,
            hasData: tail.hasData,
            ...(tail.id !== undefined ? { id: tail.id } : {}),
            text: new TextDecoder().decode(tail.bytes.subarray(0, limit)),
            truncated: tail.bytes.length > limit,
          },
        }
      : {}),
    ...(r.faults && r.faults.length > 0
      ? { faults: r.faults.map(({ fault, action, offset, note }) => ({ fault, action, offset, note })) }
      : {}),
    tabs: connectionTabs(c),
  };
}

/** The detail of what `selection` resolved to; a finding also shows the event or connection it points at. */
export function detailData(
  view: PanelView,
  selection: Selection | undefined,
  resolved: Resolved,
  limit: number,
): DetailData {
  const out: DetailData = { for: selectionKey(selection) };
  const { findingIndex, eventIndex, connectionId } = resolved;
  const finding = findingIndex !== undefined ? view.analysis.findings[findingIndex] : undefined;
  if (finding && findingIndex !== undefined) {
    out.finding = {
      key: findingKey(finding),
      rule: finding.rule,
      severity: finding.severity,
      message: finding.message,
      ...(finding.byteOffset !== undefined ? { byteOffset: finding.byteOffset } : {}),
      target: findingTargetData(view, findingIndex),
    };
  }
  const event = eventIndex !== undefined ? view.analysis.events.at(eventIndex) : undefined;
  if (event) out.event = eventDetail(view, event, limit);
  // With an event selected, its connection shows in the event summary instead.
  const connection = !event && connectionId !== undefined ? view.connectionsById.get(connectionId) : undefined;
  if (connection) out.connection = connectionDetail(view, connection, limit);
  return out;
}
