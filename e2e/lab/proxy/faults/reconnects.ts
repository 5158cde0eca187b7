// Runs in Node (lab proxy): the reconnect scenarios pass untouched: the origin's own behaviour (an error answer,
// a stream closed for polling) and the client's reconnects are what they show.
import type { ScenarioName } from '../../scenarios';
import type { FaultSpec } from '../fault-spec';

const untouched = (name: ScenarioName, summary: string): FaultSpec => ({
  name,
  summary,
  faults: [],
  afterCut: { kind: 'none' },
});

export const resumeAfterError = untouched('resume-after-error', 'no fault (the tool answers a JSON-RPC error)');
export const serverCloseResumed = untouched('server-close-resumed', 'no fault (the origin closes the stream to poll)');
export const serverCloseNotResumed = untouched(
  'server-close-not-resumed',
  'no fault (the origin closes the stream to poll; the client never reconnects)',
);
export const aiSdkCloseNotResumed = untouched(
  'ai-sdk-close-not-resumed',
  'no fault (the origin closes the stream to poll; @ai-sdk/mcp never resumes a POST stream)',
);
