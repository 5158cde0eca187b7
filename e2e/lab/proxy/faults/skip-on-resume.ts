// Runs in Node (lab proxy): the resumed stream loses events.
import type { FaultSpec } from '../fault-spec';

export const skipOnResume: FaultSpec = {
  name: 'skip-on-resume',
  summary: 'cut the tools/call stream after progress 2; the resume drops its first 2 events',
  cut: { tool: 'stream_progress', after: { kind: 'progress', count: 2 }, at: 'boundary' },
  afterCut: { kind: 'none' },
  resume: { kind: 'skip-events', count: 2 },
};
