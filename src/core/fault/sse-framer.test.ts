// Runs in Node (vitest): the fault proxy's SSE framer finds the same frames however the bytes are chunked.
import { describe, expect, it } from 'vitest';
import { type Frame, SseFramer } from './sse-framer';

/** Feeds `bytes` in the given chunk sizes (cycled) and returns every frame that ended. */
function frames(bytes: Buffer, sizes: number[] = [bytes.length]): Frame[] {
  const framer = new SseFramer();
  const out: Frame[] = [];
  let offset = 0;
  let turn = 0;
  while (offset < bytes.length) {
    const size = Math.max(1, sizes[turn++ % sizes.length] as number);
    const chunk = bytes.subarray(offset, offset + size);
    let pos = 0;
    while (pos < chunk.length) {
      const result = framer.scan(chunk, pos);
      pos = result.stop;
      if (result.ended) out.push(result.ended);
    }
    offset += size;
  }
  return out;
}

const summary = (list: Frame[]) =>
  list.map((f) => ({
    id: f.id,
    event: f.event,
    data: f.dataHead,
    offset: f.offset,
    length: f.length,
    isEvent: f.isEvent,
  }));

const sdkStream = Buffer.from(
  'id: 1\nretry: 150\ndata: \n\n' +
    'event: message\nid: 2\ndata: {"method":"notifications/progress","params":{"progress":1}}\n\n' +
    ': keepalive\n\n' +
    'event: message\nid: 3\ndata: {"result":{"content":[]},"jsonrpc":"2.0","id":1}\n\n',
);

describe('SseFramer', () => {
  it('splits an SDK stream into its frames with ids, data, offsets and lengths', () => {
    const found = frames(sdkStream);
    expect(found.map((f) => f.id)).toEqual(['1', '2', undefined, '3']);
    expect(found.map((f) => f.isEvent)).toEqual([true, true, false, true]);
    expect(found[1]?.event).toBe('message');
    expect(JSON.parse(found[1]?.dataHead ?? '')).toMatchObject({ method: 'notifications/progress' });
    expect(found[0]?.dataHead).toBe('');
    expect(found[0]?.hasData).toBe(true);
    const ends = found.map((f) => f.offset + f.length);
    expect(ends.at(-1)).toBe(sdkStream.length);
    expect(found.map((f) => f.raw && Buffer.from(f.raw).toString())).toEqual(sdkStream.toString().split(/(?<=\n\n)/));
  });

  it('gives the same frames byte by byte and in uneven chunks', () => {
    const whole = summary(frames(sdkStream));
    expect(summary(frames(sdkStream, [1]))).toEqual(whole);
    expect(summary(frames(sdkStream, [3, 17, 1, 64, 5]))).toEqual(whole);
  });

  it('accepts CRLF and CR line ends, also when a CRLF is split across chunks', () => {
    const crlf = Buffer.from('id: a\r\ndata: x\r\n\r\nid: b\r\ndata: y\r\n\r\n');
    const cr = Buffer.from('id: a\rdata: x\r\rid: b\rdata: y\r\r');
    for (const input of [crlf, cr]) {
      // Whole, the input is framed to its last byte (split, a final CR waits to see whether an LF follows).
      expect(
        frames(input, [input.length])
          .map((f) => f.offset + f.length)
          .at(-1),
      ).toBe(input.length);
      for (const sizes of [[input.length], [1], [6, 1, 2]]) {
        const all = frames(input, sizes);
        const found = all.filter((f) => f.isEvent);
        expect(found.map((f) => [f.id, f.dataHead])).toEqual([
          ['a', 'x'],
          ['b', 'y'],
        ]);
      }
    }
  });

  it('joins multi-line data with LF, takes a field without colon, and ignores an id with NULL', () => {
    const found = frames(Buffer.from('data: one\ndata\ndata:three\nid: bad\u0000id\n\n'));
    expect(found[0]?.dataHead).toBe('one\n\nthree');
    expect(found[0]?.id).toBeUndefined();
  });

  it('keeps only the head of a large data value but counts all of it', () => {
    const big = 'x'.repeat(200_000);
    const [frame] = frames(Buffer.from(`id: 9\ndata: ${big}\n\n`), [4096]);
    expect(frame?.dataTruncated).toBe(true);
    expect(frame?.dataBytes).toBe(200_000);
    expect(frame?.dataHead.length).toBe(64 * 1024);
    expect(frame?.raw).toBeUndefined();
  });

  it('can stop at the first byte of the first data value', () => {
    const input = Buffer.from('event: message\nid: 7\ndata: {"a":1}\n\n');
    const framer = new SseFramer();
    const stopped = framer.scan(input, 0, true);
    expect(stopped.atDataValue).toBe(true);
    expect(input.subarray(stopped.stop).toString()).toBe('{"a":1}\n\n');
    expect(framer.currentId).toBe('7');
    const rest = framer.scan(input, stopped.stop);
    expect(rest.ended?.dataHead).toBe('{"a":1}');
    expect(rest.ended?.length).toBe(input.length);
  });
});
