// Runs in Node (lab proxy): a scenario's fault, as data: the product's faults (src/core/fault, the same ones
// `mcp-stream-inspector proxy --fault` applies) plus what the lab does to its origin right after the cut.
// One file per scenario under faults/.
import type { Fault } from '../../../src/core/fault/fault';
import type { UnknownCursorPolicy } from '../server/stores/lab-event-store';
import type { ScenarioName } from '../scenarios';

/** What happens to the origin right after the cut (the lab owns its origin; a proxy in front of yours does not). */
export type AfterCut =
  | { kind: 'none' }
  /** A new instance (new epoch, counters from 1) takes over; the old one goes away. */
  | { kind: 'rolling-restart'; onUnknownCursor: UnknownCursorPolicy; restoreSessions: boolean }
  /** The origin forgets the session (its later requests get 404). */
  | { kind: 'drop-session' };

export interface FaultSpec {
  name: ScenarioName;
  /** One line for the log and the page. */
  summary: string;
  /** Applied in order, as several `--fault` flags are. */
  faults: Fault[];
  afterCut: AfterCut;
}

/** The tools/call of one lab tool. */
export const toolCall = (tool: string) => ({ method: 'tools/call', tool });

/** A cut on the boundary after `count` events of `kind` on the stream of a tool's call. */
export function cutAfter(tool: string, count: number, kind: 'progress' | 'elicitation' = 'progress'): Fault {
  return {
    kind: 'cut-at-boundary',
    spec: `cut-at-boundary:${count} (after ${kind} ${count} of ${tool})`,
    every: false,
    match: toolCall(tool),
    after: { count, kind },
    at: 'boundary',
  };
}
