// Runs in Node (vitest): the epoch rewriter re-ids every event with a new epoch and a counter from 1, touching
// nothing else, whatever the chunking and the line ends.
import { describe, expect, it } from 'vitest';
import { EpochRewriter } from './epoch-rewriter';

function rewrite(text: string, size: number): { out: string; renamed: EpochRewriter['renamed'] } {
  const rewriter = new EpochRewriter('e2');
  const bytes = Buffer.from(text);
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) parts.push(...rewriter.push(bytes.subarray(at, at + size)));
  parts.push(...rewriter.flush());
  return { out: Buffer.concat(parts).toString(), renamed: rewriter.renamed };
}

const SIZES = [1, 2, 3, 7, 1000];

describe('EpochRewriter', () => {
  it('replaces each id line, one new id per event, and passes every other byte', () => {
    const input = 'id: a:7\nretry: 150\ndata: \n\n: keep-alive\n\nevent: message\nid: a:8\ndata: {"id":"idle"}\n\n';
    const want = 'id: e2:1\nretry: 150\ndata: \n\n: keep-alive\n\nevent: message\nid: e2:2\ndata: {"id":"idle"}\n\n';
    for (const size of SIZES) {
      const { out, renamed } = rewrite(input, size);
      expect(out, `chunks of ${size}`).toBe(want);
      expect(renamed).toEqual([
        { from: 'a:7', to: 'e2:1' },
        { from: 'a:8', to: 'e2:2' },
      ]);
    }
  });

  it('keeps CRLF and CR line ends, reads `id` alone and `id:x` without a space, and leaves `idx:` alone', () => {
    const input = 'id:1\r\ndata: x\r\n\r\nid\rdata: y\r\rIDx: 3\nidx: 4\ndata: z\nid: 5\nid: 6\n\n';
    const want = 'id: e2:1\r\ndata: x\r\n\r\nid: e2:2\rdata: y\r\rIDx: 3\nidx: 4\ndata: z\nid: e2:3\nid: e2:3\n\n';
    for (const size of SIZES) expect(rewrite(input, size).out, `chunks of ${size}`).toBe(want);
  });

  it('hands back the start of a line cut at the end of the stream', () => {
    for (const size of SIZES) expect(rewrite('data: x\n\ni', size).out).toBe('data: x\n\ni');
  });
});
