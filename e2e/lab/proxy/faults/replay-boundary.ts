// Runs in Node (lab proxy): on resume, the last delivered event comes again before the continuation.
import type { FaultSpec } from '../fault-spec';

export const replayBoundary: FaultSpec = {
  name: 'replay-boundary',
  summary: 'cut the tools/call stream after progress 2; the resume repeats progress 2 (same id, same bytes)',
  cut: { tool: 'stream_progress', after: { kind: 'progress', count: 2 }, at: 'boundary' },
  afterCut: { kind: 'none' },
  resume: { kind: 'repeat-last-delivered' },
};
