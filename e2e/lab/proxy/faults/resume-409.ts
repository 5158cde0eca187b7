// Runs in Node (lab proxy): every resume of the cut session is refused with 409 and Retry-After.
import type { FaultSpec } from '../fault-spec';

export const resume409: FaultSpec = {
  name: 'resume-409',
  summary: 'cut the tools/call stream after progress 2; every resume gets 409 with Retry-After: 2',
  cut: { tool: 'stream_progress', after: { kind: 'progress', count: 2 }, at: 'boundary' },
  afterCut: { kind: 'none' },
  resume: {
    kind: 'reject',
    status: 409,
    retryAfterSeconds: 2,
    message: 'Conflict: resumption cursor no longer available',
  },
};
