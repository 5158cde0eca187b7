// Runs in Node (lab proxy): the control: everything passes untouched.
import type { FaultSpec } from '../fault-spec';

export const clean: FaultSpec = { name: 'clean', summary: 'no fault', faults: [], afterCut: { kind: 'none' } };
