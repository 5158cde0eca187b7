// Runs in Node (lab proxy): the stream carrying an elicitation request is lost with its session.
import type { FaultSpec } from '../fault-spec';

export const orphanedElicitation: FaultSpec = {
  name: 'orphaned-elicitation',
  summary: 'cut the ask_user stream right after the elicitation request and drop the session at the origin',
  cut: { tool: 'ask_user', after: { kind: 'elicitation', count: 1 }, at: 'boundary' },
  afterCut: { kind: 'drop-session' },
  resume: { kind: 'pass' },
};
