import { describe, expect, it } from 'vitest';
import { asRecorderToNode } from './decode-recorder';

const chunk = { kind: 'chunk', id: 'ab12-1', t: 1_764_000_000_002, bytes: new TextEncoder().encode('data: {}\n\n') };

describe('asRecorderToNode', () => {
  it('accepts what the receiver sends, rebuilt field by field', () => {
    expect(asRecorderToNode({ kind: 'hello', instance: 'd1' })).toEqual({ kind: 'hello', instance: 'd1' });
    expect(asRecorderToNode({ kind: 'next', instance: 'd1', extra: 1 })).toEqual({ kind: 'next', instance: 'd1' });
    expect(asRecorderToNode({ kind: 'deltas', instance: 'd1', deltas: [chunk], flushed: 2 })).toEqual({
      kind: 'deltas',
      instance: 'd1',
      deltas: [chunk],
      flushed: 2,
    });
  });

  it('refuses the whole message when anything is off', () => {
    expect(asRecorderToNode({ kind: 'shout', instance: 'd1' })).toBeNull();
    expect(asRecorderToNode({ kind: 'hello' })).toBeNull();
    expect(asRecorderToNode({ kind: 'deltas', instance: 'd1', deltas: [{ ...chunk, bytes: [1, 2] }] })).toBeNull();
    expect(asRecorderToNode({ kind: 'deltas', instance: 'd1', deltas: [], flushed: -1 })).toBeNull();
    expect(asRecorderToNode({ kind: 'deltas', instance: 'd1', deltas: [{ ...chunk, id: 'f1.x' }] })).toBeNull();
    expect(asRecorderToNode(null)).toBeNull();
  });
});
