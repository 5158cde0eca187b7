// Runs in Node (lab proxy): every resume of the cut session is refused with 409 and Retry-After.
import { cutAfter, type FaultSpec } from '../fault-spec';

export const resume409: FaultSpec = {
  name: 'resume-409',
  summary: 'cut the tools/call stream after progress 2; every resume gets 409 with Retry-After: 2',
  faults: [
    cutAfter('stream_progress', 2),
    {
      kind: 'resume-status',
      spec: 'resume-status:409@every',
      every: true,
      status: 409,
      retryAfterSeconds: 2,
      message: 'Conflict: resumption cursor no longer available',
    },
  ],
  afterCut: { kind: 'none' },
};
