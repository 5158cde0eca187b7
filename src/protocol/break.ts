// Runs anywhere (pure): the panel's Break menu on the wire. An arm is a set of faults for the page's next
// exchanges (one-shot, but close-resumes and an idle proxy's idle-cut@every), written as the proxy's `--fault` specs
// (core/fault/spec.ts), so the panel and the CLI share one fault model; the tap reads them with the same parser.
// `null` disarms.
import type { Fault } from '../core/fault/fault';
import { parseFaultSpec } from '../core/fault/spec';
import { fail, list, record, text } from './decode-fields';

/** One arming of the Break menu: an id the marks of its faults carry, and the faults as written. */
export interface FaultArm {
  armId: string;
  faults: string[];
}

/** A cut and a resume fault, composed: more is never needed from one menu. */
const MAX_ARMED_FAULTS = 4;
const ARM_ID = /^[\w-]{1,32}$/;

/**
 * An arm, every fault checked by the proxy's own parser; one-shot only (`@every` is the CLI's), but for the two that
 * stand for something that strikes every time until disarmed: `close-resumes` (a server that ends each resume at
 * once) and `idle-cut:SECONDS@every` without `,method=` (an intermediary's idle timeout, which cuts every quiet stream).
 */
export function decodeArm(value: unknown): FaultArm | null {
  if (value === null) return null;
  const m = record(value, 'arm');
  const armId = text(m.armId, 32, 'armId');
  if (!ARM_ID.test(armId)) fail('armId');
  const faults = list(m.faults, MAX_ARMED_FAULTS, 'faults').map((f) => {
    const spec = text(f, 64, 'fault');
    const parsed = parseFaultSpec(spec);
    if (!parsed.ok || (parsed.fault.every && !strikesUntilDisarmed(parsed.fault))) fail('fault');
    return spec;
  });
  if (faults.length === 0) fail('faults');
  return { armId, faults };
}

function strikesUntilDisarmed(fault: Fault): boolean {
  return fault.kind === 'close-resumes' || (fault.kind === 'idle-cut' && fault.anyStream);
}
