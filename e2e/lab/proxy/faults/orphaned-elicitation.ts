// Runs in Node (lab proxy): the stream carrying an elicitation request is lost with its session.
import { cutAfter, type FaultSpec } from '../fault-spec';

export const orphanedElicitation: FaultSpec = {
  name: 'orphaned-elicitation',
  summary: 'cut the ask_user stream right after the elicitation request and drop the session at the origin',
  faults: [cutAfter('ask_user', 1, 'elicitation')],
  afterCut: { kind: 'drop-session' },
};
