// Runs anywhere (pure core): the faults a fault proxy can apply, as data. `spec.ts` reads them from the
// command line's `--fault` text; the lab builds them for its scenarios.
import type { FrameKind } from './frame-kind';

/** The requests a cut or a delay strikes: a JSON-RPC method, and for `tools/call` optionally one tool. */
export interface RequestMatch {
  method: string;
  tool?: string;
}

/** How many events pass before a cut strikes: events that carry data, or only events of one kind. */
export interface EventCount {
  count: number;
  kind?: FrameKind;
}

interface Shared {
  /** How the user wrote it (`cut-mid-event:60@every`), for reports. */
  spec: string;
  /** Strike every time, not once. */
  every: boolean;
}

export type CutFault = Shared & {
  kind: 'cut-mid-event' | 'cut-at-boundary';
  match: RequestMatch;
  /** The cut strikes after this many events (at their end, or inside the next one that carries data). */
  after: EventCount;
  /** `boundary`: right after the counted events; otherwise this many bytes into the next event's data. */
  at: 'boundary' | { dataBytes: number };
};

export type DelayFault = Shared & { kind: 'delay'; match: RequestMatch; ms: number };

export type ResumeFault = Shared &
  (
    | { kind: 'drop-first-replayed'; count: number }
    | { kind: 'replay-cursor' }
    | { kind: 'resume-status'; status: number; retryAfterSeconds?: number; message?: string }
    | { kind: 'resume-silent' }
    | { kind: 'close-resumes' }
    | { kind: 'restart-epoch'; epoch?: string }
  );

/**
 * 2026-07-28 server faults on a request's own response stream: `drop-listen-ack` drops the first event of a
 * `subscriptions/listen` stream (its acknowledgement); `inject-server-request` sends a JSON-RPC request (roots/list)
 * first on the next matching request's stream, which that era forbids; `add-event-ids` numbers the events of the
 * next matching SSE response (`id:`, and `retry:` on the first when `retryMs` is given), which that era removed;
 * `rewrite-response-id` carries the response on the next matching SSE response under another id.
 */
export type StreamFault = Shared &
  (
    | { kind: 'drop-listen-ack' }
    | { kind: 'inject-server-request'; match: RequestMatch }
    | { kind: 'add-event-ids'; match: RequestMatch; retryMs?: number }
    | { kind: 'rewrite-response-id'; match: RequestMatch }
  );

/**
 * 2026-07-28 request faults: the proxy rewrites what the client sent before the server gets it (and records the
 * rewritten request, as the server saw it). `set-header` replaces one header of the first matching request;
 * `alter-request-state` changes the first `requestState` a retry echoes.
 */
export type RequestFault = Shared &
  ({ kind: 'set-header'; header: string; value: string; match: RequestMatch } | { kind: 'alter-request-state' });

/**
 * What an intermediary does to time, on a response stream: `buffer` holds it until its end (its head too, unless
 * `holdHead` is false), `stall` stops forwarding it once for `ms`, `idle-cut` cuts it once `ms` passed with no byte
 * forwarded (`anyStream`: every event-stream response, as an intermediary's idle timeout cuts every stream).
 */
export type SilenceFault = Shared &
  (
    | { kind: 'buffer'; match: RequestMatch; holdHead: boolean }
    | { kind: 'stall'; match: RequestMatch; ms: number }
    | { kind: 'idle-cut'; match: RequestMatch; ms: number; anyStream: boolean }
  );

export type Fault = CutFault | DelayFault | ResumeFault | StreamFault | RequestFault | SilenceFault;

export function isCut(fault: Fault): fault is CutFault {
  return fault.kind === 'cut-mid-event' || fault.kind === 'cut-at-boundary';
}

export function isResumeFault(fault: Fault): fault is ResumeFault {
  return (
    !isCut(fault) && fault.kind !== 'delay' && !isStreamFault(fault) && !isRequestFault(fault) && !isSilenceFault(fault)
  );
}

export function isSilenceFault(fault: Fault): fault is SilenceFault {
  return fault.kind === 'buffer' || fault.kind === 'stall' || fault.kind === 'idle-cut';
}

/** A fault that breaks a stream (a cut, or a cut after silence): the faults listed after it wait for its strike. */
export function breaksStream(fault: Fault): boolean {
  return isCut(fault) || fault.kind === 'idle-cut';
}

export function isRequestFault(fault: Fault): fault is RequestFault {
  return fault.kind === 'set-header' || fault.kind === 'alter-request-state';
}

export function isStreamFault(fault: Fault): fault is StreamFault {
  return (
    fault.kind === 'drop-listen-ack' ||
    fault.kind === 'inject-server-request' ||
    fault.kind === 'add-event-ids' ||
    fault.kind === 'rewrite-response-id'
  );
}
