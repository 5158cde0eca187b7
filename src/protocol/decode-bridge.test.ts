import { describe, expect, it } from 'vitest';
import { asBackgroundToBridge, asBridgeToBackground } from './decode-bridge';

const chunk = { kind: 'chunk', id: 'ab-1', t: 5, bytes: new TextEncoder().encode('data: x\n\n') };

describe('asBridgeToBackground', () => {
  it('accepts what a bridge sends, split pieces included', () => {
    const part = {
      type: 'snapshot-part',
      generation: 2,
      documentUrl: 'http://127.0.0.1/',
      deltas: [{ ...chunk, more: true }, chunk],
      last: true,
      droppedBytes: 0,
    };
    expect(asBridgeToBackground(part)).toEqual(part);
    expect(asBridgeToBackground({ type: 'deltas', documentUrl: 'http://127.0.0.1/', deltas: [chunk] })).toEqual({
      type: 'deltas',
      documentUrl: 'http://127.0.0.1/',
      deltas: [chunk],
    });
  });

  it('checks every field the router reads, not only the type', () => {
    const part = { type: 'snapshot-part', generation: 2, documentUrl: 'u', deltas: [], last: true, droppedBytes: 0 };
    expect(asBridgeToBackground({ ...part, generation: '2' })).toBeNull();
    expect(asBridgeToBackground({ ...part, last: 1 })).toBeNull();
    expect(asBridgeToBackground({ ...part, droppedBytes: -1 })).toBeNull();
    expect(asBridgeToBackground({ ...part, documentUrl: 7 })).toBeNull();
    expect(asBridgeToBackground({ ...part, deltas: [{ ...chunk, bytes: 'x' }] })).toBeNull();
    // A content script cannot pose as another frame's records: scoped ids come from the background only.
    expect(asBridgeToBackground({ ...part, deltas: [{ ...chunk, id: 'f2.ab-1' }] })).toBeNull();
    expect(asBridgeToBackground({ type: 'deltas', documentUrl: 'u', deltas: 'all' })).toBeNull();
    expect(asBridgeToBackground(null)).toBeNull();
  });
});

describe('asBackgroundToBridge', () => {
  it('knows collect and clear only', () => {
    expect(asBackgroundToBridge({ type: 'collect', generation: 4 })).toEqual({ type: 'collect', generation: 4 });
    expect(asBackgroundToBridge({ type: 'clear', junk: 1 })).toEqual({ type: 'clear' });
    expect(asBackgroundToBridge({ type: 'collect' })).toBeNull();
    expect(asBackgroundToBridge({ type: 'eval', code: '1' })).toBeNull();
  });
});
