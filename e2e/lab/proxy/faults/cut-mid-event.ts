// Runs in Node (lab proxy): tear an event, then let the origin replay it correctly.
import { type FaultSpec, toolCall } from '../fault-spec';

export const cutMidEvent: FaultSpec = {
  name: 'cut-mid-event',
  summary: 'cut the tools/call stream 60 bytes into the data of the event after progress 2; resume passes',
  faults: [
    {
      kind: 'cut-mid-event',
      spec: 'cut-mid-event:60 (after progress 2)',
      every: false,
      match: toolCall('stream_progress'),
      after: { count: 2, kind: 'progress' },
      at: { dataBytes: 60 },
    },
  ],
  afterCut: { kind: 'none' },
};
