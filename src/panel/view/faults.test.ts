import { describe, expect, it } from 'vitest';
import { FAULT_SYNTAX } from '../../core/fault/spec';
import { decodeArm } from '../../protocol/break';
import { breakSpecs, CUT_CHOICES, DEFAULT_BREAK, describeFault, RESUME_CHOICES, strikesEveryTime } from './breakMenu';
import { provokingFault, type StruckFault } from './faults';

const struck = (connectionId: string, sessionKey: string, t: number, fault: string): StruckFault => ({
  connectionId,
  sessionKey,
  mark: { t, arm: 'a1', fault, action: 'cut', offset: 0, note: '' },
});

describe('which fault provoked a finding', () => {
  const faults = [struck('c2', 's1', 100, 'cut-at-boundary:1'), struck('c3', 's1', 200, 'drop-first-replayed')];

  it('is the latest of its session that struck before it', () => {
    expect(provokingFault(faults, { sessionKey: 's1', time: 250 })?.mark.fault).toBe('drop-first-replayed');
    expect(provokingFault(faults, { sessionKey: 's1', time: 150 })?.mark.fault).toBe('cut-at-boundary:1');
  });

  it('or the one that struck its own connection, even a moment after its time', () => {
    expect(provokingFault(faults, { sessionKey: 's1', connectionId: 'c2', time: 99 })?.mark.fault).toBe(
      'cut-at-boundary:1',
    );
  });

  it('never one of another session, nor one that came after', () => {
    expect(provokingFault(faults, { sessionKey: 's2', time: 500 })).toBeUndefined();
    expect(provokingFault(faults, { sessionKey: 's1', time: 50 })).toBeUndefined();
  });
});

describe('the Break menu', () => {
  it('composes the cut, then its resume, as proxy specs', () => {
    expect(breakSpecs({ ...DEFAULT_BREAK, cut: 'cut-mid-event', bytes: 60, events: 1, resume: 'none' })).toEqual([
      'cut-mid-event:60',
    ]);
    expect(
      breakSpecs({ ...DEFAULT_BREAK, cut: 'cut-at-boundary', bytes: 60, events: 2, resume: 'resume-status:409' }),
    ).toEqual(['cut-at-boundary:2', 'resume-status:409']);
    expect(breakSpecs({ ...DEFAULT_BREAK, cut: 'none', bytes: 60, events: 1, resume: 'replay-cursor' })).toEqual([
      'replay-cursor',
    ]);
    expect(
      breakSpecs({ ...DEFAULT_BREAK, cut: 'cut-at-boundary', bytes: 60, events: Number.NaN, resume: 'none' }),
    ).toEqual(['cut-at-boundary:1']);
  });

  it('offers each cut and silence fault of the proxy, with its amount, one at a time', () => {
    const specs = CUT_CHOICES.flatMap((c) =>
      breakSpecs({ ...DEFAULT_BREAK, cut: c.value, seconds: 2.5, everySeconds: 1.5, ms: 800 }),
    );
    expect(specs).toEqual([
      'cut-mid-event:60',
      'cut-at-boundary:1',
      'idle-cut:2.5',
      'idle-cut:1.5@every',
      'stall:800',
      'buffer',
      'buffer:body',
    ]);
    const names = new Set(FAULT_SYNTAX.map((syntax) => /^[a-z-]+/.exec(syntax)?.[0]));
    expect(specs.filter((spec) => !names.has(/^[a-z-]+/.exec(spec)?.[0]))).toEqual([]);
    expect(specs.map(describeFault).filter((words, i) => words === specs[i])).toEqual([]);
    expect(breakSpecs({ ...DEFAULT_BREAK, cut: 'idle-cut', seconds: 0 })).toEqual(['idle-cut:0.001']);
    expect(breakSpecs({ ...DEFAULT_BREAK, cut: 'stall', ms: Number.NaN })).toEqual(['stall:1']);
  });

  it('says each in words', () => {
    expect(describeFault('idle-cut:3')).toBe('Cut the next tools/call stream after 3 s with no byte');
    expect(describeFault('idle-cut:1.5@every')).toBe('Cut every stream quiet for 1.5 s, as an idle proxy');
    expect(describeFault('buffer')).toBe('Hold the next tools/call stream, head and body, until it ends');
    expect(describeFault('cut-mid-event:60')).toBe('Cut the next tools/call stream 60 bytes into an event');
    expect(describeFault('resume-status:404')).toBe('Answer the next resume 404');
    expect(describeFault('close-resumes')).toBe('End every resume at once with a new priming id');
  });

  it('offers every resume choice as a spec the proxy reads; only close-resumes strikes until disarmed', () => {
    const specs = RESUME_CHOICES.flatMap((c) =>
      breakSpecs({ ...DEFAULT_BREAK, cut: 'none', bytes: 0, events: 1, resume: c.value }),
    );
    expect(specs).toHaveLength(RESUME_CHOICES.length - 1);
    expect(specs.filter(strikesEveryTime)).toEqual(['close-resumes']);
    // The idle proxy is the one cut choice that strikes until disarmed, and the wire lets it through.
    const cuts = CUT_CHOICES.flatMap((c) => breakSpecs({ ...DEFAULT_BREAK, cut: c.value }));
    expect(cuts.filter(strikesEveryTime)).toEqual(['idle-cut:3@every']);
    expect(decodeArm({ armId: 'a1', faults: cuts.filter(strikesEveryTime) })).not.toBeNull();
    expect(specs.map(describeFault).filter((words, i) => words === specs[i])).toEqual([]);
  });
});
