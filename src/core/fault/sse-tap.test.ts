// Runs in Node (vitest): the proxy's SSE tap cuts, drops and prefixes at exact bytes whatever the chunking.
import { describe, expect, it } from 'vitest';
import type { Frame } from './sse-framer';
import { type CutInfo, SseTap, type TapOp, type TapPolicy } from './sse-tap';

const events = [
  'id: 1\ndata: \n\n',
  'event: message\nid: 2\ndata: {"n":2}\n\n',
  'event: message\nid: 3\ndata: {"n":3,"pad":"abcdefghij"}\n\n',
  'event: message\nid: 4\ndata: {"n":4}\n\n',
];
const stream = Buffer.from(events.join(''));

function run(policy: TapPolicy, sizes: number[]): { out: string; cut?: CutInfo } {
  const tap = new SseTap(policy);
  const ops: TapOp[] = [];
  for (let offset = 0, turn = 0; offset < stream.length;) {
    const size = sizes[turn++ % sizes.length] as number;
    ops.push(...tap.push(stream.subarray(offset, offset + size)));
    offset += size;
  }
  const out = Buffer.concat(ops.flatMap((op) => (op.op === 'write' ? [op.bytes] : []))).toString();
  const cut = ops.find((op): op is Extract<TapOp, { op: 'cut' }> => op.op === 'cut')?.info;
  expect(ops.filter((op) => op.op === 'cut').length).toBeLessThanOrEqual(1);
  return { out, cut };
}

const chunkings = [[stream.length], [1], [7, 2, 30], [16]];
const pass: TapPolicy = { atFrameStart: () => ({ kind: 'pass' }), onFrameEnd: () => 'continue' };

describe('SseTap', () => {
  it('passes everything untouched with a pass policy', () => {
    for (const sizes of chunkings) expect(run(pass, sizes)).toEqual({ out: stream.toString(), cut: undefined });
  });

  it('cuts a given number of bytes into the data of a chosen event', () => {
    const policy = (): TapPolicy => ({
      atFrameStart: (i) => (i === 2 ? { kind: 'cut-into-data', dataBytes: 5 } : { kind: 'pass' }),
      onFrameEnd: () => 'continue',
    });
    for (const sizes of chunkings) {
      const { out, cut } = run(policy(), sizes);
      expect(out).toBe(`${events[0]}${events[1]}event: message\nid: 3\ndata: {"n":`);
      expect(cut).toMatchObject({ frameIndex: 2, midEvent: true, tornEventId: '3', bytesForwarded: out.length });
      expect(cut?.bytesIntoFrame).toBe('event: message\nid: 3\ndata: {"n":'.length);
    }
  });

  it('lets a frame shorter than the cut point pass whole and cuts the next one', () => {
    let armed = false;
    const policy: TapPolicy = {
      atFrameStart: () => (armed ? { kind: 'cut-into-data', dataBytes: 12 } : { kind: 'pass' }),
      onFrameEnd: (frame) => {
        if (frame.id === '1') armed = true;
        return 'continue';
      },
    };
    const { out, cut } = run(policy, [stream.length]);
    expect(out).toBe(`${events[0]}${events[1]}event: message\nid: 3\ndata: {"n":3,"pad"`);
    expect(cut?.tornEventId).toBe('3');
  });

  it('cuts right after a frame at a boundary', () => {
    for (const sizes of chunkings) {
      const { out, cut } = run(
        { atFrameStart: () => ({ kind: 'pass' }), onFrameEnd: (f: Frame) => (f.id === '2' ? 'cut' : 'continue') },
        sizes,
      );
      expect(out).toBe(events[0]! + events[1]!);
      expect(cut).toMatchObject({ frameIndex: 1, midEvent: false, bytesIntoFrame: 0 });
    }
  });

  it('drops chosen frames and writes a prefix first', () => {
    const delivered: Array<[string | undefined, boolean]> = [];
    const policy: TapPolicy = {
      prefix: () => Buffer.from('id: 0\ndata: again\n\n'),
      atFrameStart: (i) => (i === 1 || i === 2 ? { kind: 'drop' } : { kind: 'pass' }),
      onFrameEnd: (frame, wasDelivered) => {
        delivered.push([frame.id, wasDelivered]);
        return 'continue';
      },
    };
    const { out } = run(policy, [5]);
    expect(out).toBe(`id: 0\ndata: again\n\n${events[0]}${events[3]}`);
    expect(delivered).toEqual([
      ['1', true],
      ['2', false],
      ['3', false],
      ['4', true],
    ]);
  });
});
