import { describe, expect, it } from 'vitest';
import { asBackgroundToBridge } from './decode-bridge';
import { asBreakAck, asPanelToBackground } from './decode-panel';
import { asTapToBridge } from './decode-tap';
import { decodeDelta, FROM_PAGE } from './decode-delta';

const arm = { armId: 'a1', faults: ['cut-at-boundary:1', 'resume-status:409'] };

describe('the Break menu on the wire', () => {
  it('carries an arm panel -> background -> bridge, every fault checked by the proxy parser', () => {
    expect(asPanelToBackground({ type: 'break', tabId: 3, arm })).toEqual({ type: 'break', tabId: 3, arm });
    expect(asBackgroundToBridge({ type: 'break', arm })).toEqual({ type: 'break', arm });
    expect(asBackgroundToBridge({ type: 'break', arm: null })).toEqual({ type: 'break', arm: null });
    // close-resumes strikes every resume by its meaning: the one fault that is not one-shot.
    const everyResume = { armId: 'a2', faults: ['cut-at-boundary:1', 'close-resumes'] };
    expect(asBackgroundToBridge({ type: 'break', arm: everyResume })).toEqual({ type: 'break', arm: everyResume });
  });

  it("carries an idle proxy's idle-cut@every (every quiet stream, until disarmed), and no other idle-cut@every", () => {
    const idleProxy = { armId: 'a3', faults: ['idle-cut:1.5@every'] };
    expect(asPanelToBackground({ type: 'break', tabId: 3, arm: idleProxy })).toEqual({
      type: 'break',
      tabId: 3,
      arm: idleProxy,
    });
    const composed = { armId: 'a4', faults: ['idle-cut:3@every', 'resume-status:409'] };
    expect(asBackgroundToBridge({ type: 'break', arm: composed })).toEqual({ type: 'break', arm: composed });
    // Bound to one method it is a repeated cut of that request, not an intermediary: the CLI's, as every @every.
    for (const bad of ['idle-cut:3@every,method=tools/call', 'idle-cut@every', 'stall:500@every', 'buffer@every']) {
      expect(asBackgroundToBridge({ type: 'break', arm: { armId: 'a5', faults: [bad] } })).toBeNull();
    }
  });

  it('refuses unknown faults, @every, an empty list, bad ids and extra shapes', () => {
    for (const bad of [
      { ...arm, faults: ['cut-somewhere'] },
      { ...arm, faults: ['cut-mid-event@every'] },
      { ...arm, faults: ['resume-silent@every'] },
      { ...arm, faults: [] },
      { ...arm, faults: ['cut-mid-event', 'cut-mid-event', 'replay-cursor', 'resume-silent', 'replay-cursor'] },
      { ...arm, armId: 'a b' },
      { ...arm, faults: 'cut-mid-event' },
      'cut-mid-event',
    ]) {
      expect(asBackgroundToBridge({ type: 'break', arm: bad })).toBeNull();
      expect(asPanelToBackground({ type: 'break', tabId: 3, arm: bad })).toBeNull();
    }
  });

  it("decodes the tap's answer and the background's ack for this tab only", () => {
    expect(asTapToBridge({ source: 'mcp-stream-inspector/tap', instance: 'x', deltas: [], armed: 'a1' })).toEqual({
      source: 'mcp-stream-inspector/tap',
      instance: 'x',
      deltas: [],
      armed: 'a1',
    });
    expect(asTapToBridge({ source: 'mcp-stream-inspector/tap', instance: 'x', deltas: [], armed: 7 })).toBeNull();
    const ack = { type: 'break-armed', tabId: 3, armId: 'a1', taken: true };
    expect(asBreakAck(ack, 3)).toEqual(ack);
    expect(asBreakAck(ack, 4)).toBeNull();
    expect(asBreakAck({ ...ack, taken: 'yes' }, 3)).toBeNull();
  });

  it('decodes a fault mark field by field', () => {
    const mark = { t: 1, arm: 'a1', fault: 'cut-mid-event:60', action: 'cut', offset: 120, note: 'cut 82 bytes' };
    expect(decodeDelta({ kind: 'fault', id: 'c1', mark }, FROM_PAGE)).toEqual({ kind: 'fault', id: 'c1', mark });
    const posted = (bad: object) =>
      asTapToBridge({
        source: 'mcp-stream-inspector/tap',
        instance: 'x',
        deltas: [{ kind: 'fault', id: 'c1', mark: bad }],
      });
    expect(posted(mark)).not.toBeNull();
    expect(posted({ ...mark, offset: -1 })).toBeNull();
    expect(posted({ ...mark, note: 3 })).toBeNull();
  });
});
