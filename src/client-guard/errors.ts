// Runs anywhere (browsers, Node, Workers): the client guard's typed refusal. Touches no DOM and no Node API.

/**
 * Why the guard refused a resume, named as the inspector's rule for the same hazard:
 * `epoch-mismatch` (events of another server epoch), `resume-not-honored` (the stream restarted, took another
 * stream's ids, or answered nothing while a request waited), `resume-id-gap` (events skipped),
 * `cross-stream-replay` (another stream's events replayed), `resumption-rejected` (the server refused the resume
 * itself: a 4xx), `session-not-reinitialized` (the server no longer knows the session: a 404, which every later
 * request on it would get too), `reconnect-storm` (resumes that keep ending with nothing delivered).
 */
export type RejectionRule =
  | 'epoch-mismatch'
  | 'resume-not-honored'
  | 'resume-id-gap'
  | 'cross-stream-replay'
  | 'resumption-rejected'
  | 'session-not-reinitialized'
  | 'reconnect-storm';

/** What a {@link ResumptionRejectedError} says about the refused resume. */
export interface RejectionDetails {
  rule: RejectionRule;
  /** The `Last-Event-ID` the resume carried. */
  cursor: string;
  /** The first event id that did not continue the stream, when one arrived. */
  eventId?: string;
  /** The session (`Mcp-Session-Id`), when the server gave one. */
  sessionId?: string;
  /** JSON-RPC ids of the client's requests still unanswered on the refused stream. */
  pendingRequestIds: (string | number)[];
}

/**
 * A resumed stream that does not continue the one it resumes. Not retryable with the same cursor: the client must
 * close the session, fail its pending requests and re-initialize (`ClientGuard.recover`). Distinct from a
 * transport error (a network failure, which a retry may mend), as the epoch-collision field report prescribes.
 */
export class ResumptionRejectedError extends Error {
  override readonly name = 'ResumptionRejectedError';
  readonly rule: RejectionRule;
  readonly cursor: string;
  readonly eventId: string | undefined;
  readonly sessionId: string | undefined;
  readonly pendingRequestIds: (string | number)[];

  constructor(message: string, details: RejectionDetails) {
    super(message);
    this.rule = details.rule;
    this.cursor = details.cursor;
    this.eventId = details.eventId;
    this.sessionId = details.sessionId;
    this.pendingRequestIds = details.pendingRequestIds;
  }
}

/** Whether `error` is the guard's refusal, or an SDK error that wraps its message (the SDK re-wraps stream errors). */
export function isResumptionRejected(error: unknown): boolean {
  if (error instanceof ResumptionRejectedError) return true;
  return error instanceof Error && error.message.includes('ResumptionRejectedError');
}
