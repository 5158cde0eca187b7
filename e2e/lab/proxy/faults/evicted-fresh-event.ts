// Runs in Node (lab proxy): tear a big result; the origin's ring buffer (scenario origin) has
// evicted the cursor and re-sends the whole result under a new id.
import { type FaultSpec, toolCall } from '../fault-spec';

export const evictedFreshEvent: FaultSpec = {
  name: 'evicted-fresh-event',
  summary:
    'cut the big_result stream 256 KiB into the result; the evicting origin answers the resume with a fresh event',
  faults: [
    {
      kind: 'cut-mid-event',
      spec: 'cut-mid-event:262144 (after progress 2)',
      every: false,
      match: toolCall('big_result'),
      after: { count: 2, kind: 'progress' },
      at: { dataBytes: 256 * 1024 },
    },
  ],
  afterCut: { kind: 'none' },
};
