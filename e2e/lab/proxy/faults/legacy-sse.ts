// Runs in Node (lab proxy): the 2024-11-05 transport passes untouched.
import type { FaultSpec } from '../fault-spec';

export const legacySse: FaultSpec = {
  name: 'legacy-sse',
  summary: 'no fault (HTTP+SSE transport)',
  faults: [],
  afterCut: { kind: 'none' },
};
