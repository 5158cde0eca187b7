// Runs in Node (lab proxy): rolling restart; the new epoch clamps the foreign cursor and replays its own ids.
import { cutAfter, type FaultSpec } from '../fault-spec';

export const epochRestartClamp: FaultSpec = {
  name: 'epoch-restart-clamp',
  summary: 'cut the tools/call stream after progress 2, restart the origin (new epoch) which clamps the old cursor',
  faults: [cutAfter('stream_progress', 2)],
  afterCut: { kind: 'rolling-restart', onUnknownCursor: 'clamp', restoreSessions: true },
};
