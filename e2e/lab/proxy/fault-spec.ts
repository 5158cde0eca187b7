// Runs in Node (lab proxy): the shape of a fault, as data. One file per fault under faults/.
import type { UnknownCursorPolicy } from '../server/stores/lab-event-store';
import type { ScenarioName } from '../scenarios';
import type { FrameKind } from './frame-kind';

/** Which POST SSE response to cut, when, and where. */
export interface CutSpec {
  /** The tools/call of this tool (any tool when absent). */
  tool?: string;
  /** The cut arms once this many events of this kind have been delivered on that response. */
  after: { kind: FrameKind; count: number };
  /** `boundary`: right after the arming event; otherwise this many bytes into the next event's data. */
  at: 'boundary' | { dataBytes: number };
}

/** What happens to the origin right after the cut. */
export type AfterCut =
  | { kind: 'none' }
  /** A new instance (new epoch, counters from 1) takes over; the old one goes away. */
  | { kind: 'rolling-restart'; onUnknownCursor: UnknownCursorPolicy; restoreSessions: boolean }
  /** The origin forgets the session (its later requests get 404). */
  | { kind: 'drop-session' };

/** What happens to a resume (GET with Last-Event-ID) of the cut session. */
export type ResumeSpec =
  | { kind: 'pass' }
  /** The first resume starts with the last event delivered before the cut, again. */
  | { kind: 'repeat-last-delivered' }
  /** The first resume loses its first `count` events. */
  | { kind: 'skip-events'; count: number }
  /** Every resume is refused with this status. */
  | { kind: 'reject'; status: number; retryAfterSeconds?: number; message: string };

export interface FaultSpec {
  name: ScenarioName;
  /** One line for the log and the page. */
  summary: string;
  cut?: CutSpec;
  afterCut: AfterCut;
  resume: ResumeSpec;
}
