// Runs in Node (lab proxy): the origin loses the session; the resume gets the origin's 404.
import { cutAfter, type FaultSpec } from '../fault-spec';

export const resume404: FaultSpec = {
  name: 'resume-404',
  summary: 'cut the tools/call stream after progress 2 and drop the session at the origin (404 from then on)',
  faults: [cutAfter('stream_progress', 2)],
  afterCut: { kind: 'drop-session' },
};
