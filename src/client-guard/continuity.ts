// Runs anywhere (browsers, Node, Workers): does an event of a resumed stream continue the stream after the cursor?
// Pure: the session's ledger in, a judgement out. Touches no DOM and no Node API.
/*
 * The decision boundary of the two field reports, applied to the first events of a resume, as the inspector's rules
 * read the same wire (resume-not-honored, epoch-mismatch, resume-id-gap, cross-stream-replay,
 * replayed-event-duplicate): an event the stream already delivered is dropped when it is the same event again, and
 * means a restart when it is another one; the first new id must belong to the cursor's epoch (or SDK stream), come
 * after it, and leave no number undelivered when the session's ids are one counter.
 */
import { describeRange, missingBetween } from '../core/guard/rules/sequence';
import { detectScheme, parseId } from '../core/ids/scheme';
import type { RejectionRule } from './errors';
import type { SessionState, StreamState } from './ledger';

export type Judgement =
  | { kind: 'duplicate'; message: string }
  | { kind: 'continue' }
  | { kind: 'refuse'; rule: RejectionRule; message: string };

const refuse = (rule: RejectionRule, message: string): Judgement => ({ kind: 'refuse', rule, message });

/**
 * Judges one id event of a resumed connection that has not yet shown a new id.
 * @param stream the stream the cursor belongs to, when the guard delivered it
 */
export function judgeResumedEvent(
  session: SessionState,
  stream: StreamState | undefined,
  cursor: string,
  id: string,
  data: string,
): Judgement {
  if (id === cursor) {
    if (stream?.lastId !== cursor || data === stream.lastData)
      return { kind: 'duplicate', message: `the cursor's own event ${cursor} was sent again; dropped` };
    return refuse(
      'resume-not-honored',
      `the resume after ${cursor} sent ${cursor} again with another payload: the server restarted its ids`,
    );
  }
  const seen = session.find(id);
  if (seen) {
    const at = session.find(cursor);
    if (at && seen.order < at.order)
      return refuse('resume-not-honored', `the resume after ${cursor} starts over at ${id}, delivered before it`);
    if (stream && seen.stream !== stream)
      return refuse(
        'cross-stream-replay',
        `the resume after ${cursor} replays ${id}, an event of ${seen.stream.label}`,
      );
    return { kind: 'duplicate', message: `event ${id} was already delivered; dropped` };
  }
  return judgeNewId(session, cursor, id);
}

/** The first id the stream never delivered: it must continue the cursor in the cursor's scheme. */
function judgeNewId(session: SessionState, cursor: string, id: string): Judgement {
  const cursorScheme = detectScheme([cursor]);
  const idScheme = detectScheme([id]);
  if (cursorScheme !== idScheme && cursorScheme !== 'opaque' && idScheme !== 'opaque')
    return refuse('resume-not-honored', `the resume after ${cursor} sent ${id}, an id of another kind`);
  if (cursorScheme !== idScheme) return { kind: 'continue' };
  const from = parseId(cursorScheme, cursor);
  const to = parseId(cursorScheme, id);
  if (cursorScheme === 'sdk-stream') {
    if (from.streamKey !== to.streamKey)
      return refuse('resume-not-honored', `the resume after ${cursor} sent ${id}, an id of another stream`);
    if ((to.ms ?? 0) < (from.ms ?? 0))
      return refuse('resume-not-honored', `the resume after ${cursor} sent ${id}, an id older than the cursor`);
    return { kind: 'continue' };
  }
  if (from.seq === undefined || to.seq === undefined) return { kind: 'continue' };
  if (from.epoch !== to.epoch)
    return refuse(
      'epoch-mismatch',
      `the resume after ${cursor} (epoch ${from.epoch ?? ''}) was served by epoch ${to.epoch ?? ''}: its ids mean nothing here`,
    );
  if (to.seq <= from.seq)
    return refuse('resume-not-honored', `the resume after ${cursor} starts at ${id}: the server restarted its ids`);
  const numbers = session.numbers;
  const missing = !session.sparse && numbers ? missingBetween(from, to, numbers) : undefined;
  if (missing)
    return refuse(
      'resume-id-gap',
      `the resume after ${cursor} starts at ${id}: ${describeRange(missing)} never delivered`,
    );
  return { kind: 'continue' };
}
