// Runs in Node (lab proxy): rolling restart; the new epoch answers the resume with a fresh stream.
import { cutAfter, type FaultSpec } from '../fault-spec';

export const epochRestartFresh: FaultSpec = {
  name: 'epoch-restart-fresh',
  summary: 'cut the tools/call stream after progress 2, restart the origin (new epoch) which starts a fresh stream',
  faults: [cutAfter('stream_progress', 2)],
  afterCut: { kind: 'rolling-restart', onUnknownCursor: 'fresh', restoreSessions: true },
};
