// Runs in Node (lab proxy): tear an event, then let the origin replay it correctly.
import type { FaultSpec } from '../fault-spec';

export const cutMidEvent: FaultSpec = {
  name: 'cut-mid-event',
  summary: 'cut the tools/call stream 60 bytes into the data of the event after progress 2; resume passes',
  cut: { tool: 'stream_progress', after: { kind: 'progress', count: 2 }, at: { dataBytes: 60 } },
  afterCut: { kind: 'none' },
  resume: { kind: 'pass' },
};
