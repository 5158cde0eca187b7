// Runs anywhere (pure core): rule resume-not-honored.
import { lastActivity } from '../../model/silence';
import { RESUMABLE_ERAS } from '../../mcp/era';
import { parseId, type IdScheme, type ParsedId } from '../../ids/scheme';
import { idKey } from '../../mcp/jsonrpc';
import type { ConnectionView, EventView } from '../../model/types';
import { at, factsOf, isResumeAttempt, ok, type SessionFacts } from '../facts';
import { isPrimingReplay } from '../priming';
import type { Report, Rule } from '../types';

/** Why the first resumed id is not a continuation of the cursor, or undefined when it may be. */
function restartReason(
  scheme: IdScheme,
  cursor: ParsedId,
  first: ParsedId,
  firstDelivery: (id: string) => EventView | undefined,
): string | undefined {
  if (cursor.seq !== undefined && first.seq !== undefined) {
    if (cursor.epoch !== first.epoch)
      return `its ids come from another epoch (${first.epoch ?? '?'} instead of ${cursor.epoch ?? '?'})`;
    if (first.seq <= cursor.seq) return `its first id ${first.raw} is at or before the cursor: the stream restarted`;
    return undefined;
  }
  if (scheme === 'sdk-stream' && cursor.streamKey !== undefined && first.streamKey !== undefined) {
    if (cursor.streamKey !== first.streamKey) return `its ids belong to another stream (${first.streamKey})`;
    if (first.ms !== undefined && cursor.ms !== undefined && first.ms < cursor.ms)
      return `its first id ${first.raw} is older than the cursor`;
  }
  // Index order is the session's delivery order.
  const firstAt = firstDelivery(first.raw)?.index;
  const cursorAt = firstDelivery(cursor.raw)?.index;
  if (firstAt !== undefined && cursorAt !== undefined && firstAt <= cursorAt)
    return `its first id ${first.raw} was delivered before the cursor: the stream restarted`;
  return undefined;
}

/** The first event of the resumed connection that passes a test. */
type FindEvent = (test: (event: EventView) => boolean) => EventView | undefined;

/**
 * The interrupted event came back whole under a new id: the server lost its buffer and re-sent the message. Only
 * when the torn prefix tells messages apart: a prefix that another event of the cut or the resumed connection also
 * starts with (every progress notification starts the same) proves nothing about which message came back.
 */
function reissuedTornEvent(
  cut: ConnectionView | undefined,
  find: FindEvent,
  findIn: (conn: ConnectionView, test: (event: EventView) => boolean) => EventView | undefined,
): EventView | undefined {
  const tail = cut?.tail;
  if (!tail) return undefined;
  const pendingData = /^data:? ?/.test(tail.pendingLine) ? tail.pendingLine.replace(/^data:? ?/, '') : '';
  const prefix = [...tail.dataLines, ...(pendingData ? [pendingData] : [])].join('\n');
  if (prefix.length < 8) return undefined;
  const pendingId = tail.pendingLine.startsWith('id:') ? tail.pendingLine.replace(/^id: ?/, '') : undefined;
  // A complete id line must come back exactly; a cut one can only be compared by its prefix.
  const sameId =
    tail.id !== undefined
      ? (id: string) => id === tail.id
      : pendingId !== undefined
        ? (id: string) => id.startsWith(pendingId)
        : undefined;
  if (!sameId) return undefined;
  // The interrupted event replayed under its own id is the correct behaviour (later events may share its prefix).
  if (find((e) => e.hasId && sameId(e.lastEventId))) return undefined;
  const startsWithPrefix = (e: EventView) => e.dataLength >= prefix.length && e.data.startsWith(prefix);
  const candidate = find((e) => e.hasId && startsWithPrefix(e));
  if (!candidate || !cut) return undefined;
  const another = (e: EventView) => e.index !== candidate.index && startsWithPrefix(e);
  return find(another) || findIn(cut, another) ? undefined : candidate;
}

/**
 * The cursor's own event sent again with the very same payload: the server echoed the requested Last-Event-ID, which
 * the field report's decision boundary calls safe to continue (a duplicate, replayed-event-duplicate's), not a
 * restart; what follows it decides. An id before the cursor, or the cursor's id with another payload, is a restart.
 */
function echoesCursor(event: EventView, cursor: string, ids: SessionFacts['ids']): boolean {
  if (event.lastEventId !== cursor) return false;
  const first = ids.firstDelivery(cursor);
  return (
    first !== undefined &&
    first.index !== event.index &&
    first.dataLength === event.dataLength &&
    first.data === event.data
  );
}

function fromAnotherStream(event: EventView, ids: SessionFacts['ids']): boolean {
  const first = ids.firstDelivery(event.lastEventId);
  return first !== undefined && first.index !== event.index && first.streamId !== event.streamId;
}

function neverAnswered(facts: SessionFacts, requestIds: readonly (string | number)[]): (string | number)[] {
  return requestIds.filter((id) => !facts.answeredAt.has(idKey(id)));
}

/**
 * A resume that something in between cut after a silence (a network error, no byte for at least the idle threshold):
 * the server had nothing to send yet, which says nothing of how it resumes (idle-timeout-cut speaks of the cut).
 */
function cutWhileSilent(conn: ConnectionView, idleCutMs: number): boolean {
  const { record } = conn;
  return (
    record.end === 'network-error' && record.endTime !== undefined && record.endTime - lastActivity(record) >= idleCutMs
  );
}

export const resumeNotHonored: Rule = {
  id: 'resume-not-honored',
  severity: 'error',
  title: 'Resume did not continue the stream',
  summary:
    'Last-Event-ID was sent and the 200 response did not continue after it: a restarted stream, unrelated ids, a re-sent message under a new id, or nothing while the request stays unanswered.',
  eras: RESUMABLE_ERAS,
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const session of facts.sessions) {
      const scheme = session.session.idScheme;
      const { ids } = session;
      for (const conn of session.connections) {
        if (!isResumeAttempt(conn) || !ok(conn) || !conn.isSse) continue;
        const find: FindEvent = (test) => facts.findEvent(conn, test);
        // A replayed priming event, the cursor's event echoed, or another stream's event (cross-stream-replay's)
        // says nothing about where this stream continues.
        const cursor = conn.lastEventIdSent;
        const first = find(
          (e) => e.hasId && !isPrimingReplay(e, ids) && !echoesCursor(e, cursor, ids) && !fromAnotherStream(e, ids),
        );
        const report = (message: string, event?: EventView) =>
          reports.push({
            message: `resume of ${conn.lastEventIdSent} on ${conn.id}: ${message}`,
            ...at(conn, event ? { eventId: event.lastEventId, byteOffset: event.start, time: event.time } : {}),
          });
        const reissued = reissuedTornEvent(
          conn.resumes !== undefined ? facts.connection.get(conn.resumes) : undefined,
          find,
          facts.findEvent,
        );
        if (reissued) {
          report(
            `the interrupted event came back whole under a new id ${reissued.lastEventId}: the server lost its buffer and re-sent the message instead of continuing.`,
            reissued,
          );
          continue;
        }
        if (first) {
          const reason = restartReason(
            scheme,
            parseId(scheme, conn.lastEventIdSent),
            parseId(scheme, first.lastEventId),
            (id) => ids.firstDelivery(id),
          );
          if (reason) {
            report(`the response is not a continuation: ${reason}.`, first);
            continue;
          }
        }
        const stream = conn.streamId !== undefined ? facts.stream.get(conn.streamId) : undefined;
        // 2025-11-25 servers may close a resume early and let the client poll again: only the last one counts.
        if (!stream || conn.record.end === 'open' || stream.connectionIds.at(-1) !== conn.id) continue;
        const waiting = neverAnswered(session, stream.requestIds);
        if (
          waiting.length > 0 &&
          !find((e) => e.envelopes.length > 0) &&
          !cutWhileSilent(conn, model.silence.idleCutMs)
        ) {
          report(
            `nothing of the resumed stream was delivered and request ${waiting.map(String).join(', ')} was never answered.`,
          );
        }
      }
    }
    return reports;
  },
};
