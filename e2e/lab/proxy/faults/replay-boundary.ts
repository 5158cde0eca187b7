// Runs in Node (lab proxy): on resume, the cursor's own event comes again before the continuation.
import { cutAfter, type FaultSpec } from '../fault-spec';

export const replayBoundary: FaultSpec = {
  name: 'replay-boundary',
  summary: 'cut the tools/call stream after progress 2; the resume repeats progress 2 (same id, same bytes)',
  faults: [cutAfter('stream_progress', 2), { kind: 'replay-cursor', spec: 'replay-cursor', every: false }],
  afterCut: { kind: 'none' },
};
