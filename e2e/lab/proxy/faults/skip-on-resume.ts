// Runs in Node (lab proxy): the resumed stream loses events.
import { cutAfter, type FaultSpec } from '../fault-spec';

export const skipOnResume: FaultSpec = {
  name: 'skip-on-resume',
  summary: 'cut the tools/call stream after progress 2; the resume drops its first 2 events',
  faults: [
    cutAfter('stream_progress', 2),
    { kind: 'drop-first-replayed', spec: 'drop-first-replayed:2', every: false, count: 2 },
  ],
  afterCut: { kind: 'none' },
};
