// Runs anywhere (test support): analyze a transcript and pick one rule's findings.
import { analyze } from '../analyze';
import type { Capture } from '../capture/model';
import type { Finding } from './types';

export function findingsFor(capture: Capture, rule: string): Finding[] {
  return analyze(capture).findings.filter((f) => f.rule === rule);
}

export { rpc, session, sseEvent, Transcript } from './transcript';
