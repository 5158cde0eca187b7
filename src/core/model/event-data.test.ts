// A row's preview of an event's data reads only the bytes it shows, and is exactly the start of the whole data:
// seeded streams of every line shape the parser knows (CRLF, CR, comments, other fields, `data` without a colon,
// multi-line data, 2- and 4-byte UTF-8, invalid bytes), cut into chunks at random offsets.
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze';
import type { BodyChunk } from '../capture/model';
import { Transcript } from '../guard/transcript';

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0) / 2 ** 32;
}

const TEXTS = ['', 'a', 'héllo', '日本語テキスト', '😀 emoji 😀', '{"jsonrpc":"2.0","method":"n"}', 'x'.repeat(300)];

function streamBytes(next: () => number): Uint8Array {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const parts: Uint8Array[] = [];
  const enc = new TextEncoder();
  for (let e = 0; e < 40; e++) {
    const eol = pick(['\n', '\r\n', '\r']);
    const lines: string[] = [];
    for (let l = 0, n = 1 + Math.floor(next() * 5); l < n; l++) {
      const text = pick(TEXTS).repeat(1 + Math.floor(next() * 30));
      lines.push(
        pick([
          `data: ${text}`,
          `data:${text}`,
          'data',
          `data:  ${text}`,
          `: ${text}`,
          `id: ${e}`,
          'event: m',
          `datax: ${text}`,
        ]),
      );
    }
    lines.push(`data: ${pick(TEXTS)}`);
    parts.push(enc.encode(lines.join(eol) + eol + eol));
    if (next() < 0.2) parts.push(new Uint8Array([100, 97, 116, 97, 58, 32, 0xff, 0xe6, 0x97, 10, 10])); // invalid UTF-8
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) all.set(p, (at += p.length) - p.length);
  return all;
}

function chunked(bytes: Uint8Array, next: () => number): BodyChunk[] {
  const chunks: BodyChunk[] = [];
  for (let at = 0, t = 2_000; at < bytes.length; t++) {
    const size = 1 + Math.floor(next() * (next() < 0.3 ? 8 : 700));
    chunks.push({ t, bytes: bytes.slice(at, at + size) });
    at += size;
  }
  return chunks;
}

describe('event data preview', () => {
  it('is the first max units of the whole data, for every event, cut and length', () => {
    let compared = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const next = random(seed);
      const t = new Transcript();
      t.exchange({ sse: ['\n'], end: 'complete', body: { jsonrpc: '2.0', id: 1, method: 'tools/call' } }, 'S');
      const capture = t.capture();
      const record = capture.connections[0];
      if (!record) throw new Error('no record');
      record.chunks = chunked(streamBytes(next), next);
      const { events } = analyze(capture);
      expect(events.length).toBeGreaterThan(30);
      for (const event of events) {
        const whole = event.data;
        for (const max of [0, 1, 2, 7, 240, whole.length, whole.length + 5]) {
          expect(event.dataPreview(max)).toBe(whole.slice(0, max));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(2_000);
  });

  it('reads a 4 MiB event no further than its preview needs', () => {
    const t = new Transcript();
    const text = `${'é'.repeat(2 * 1024 * 1024)}`;
    t.exchange(
      { sse: [`id: 1\ndata: ${text}\n\n`], end: 'complete', body: { jsonrpc: '2.0', id: 1, method: 'tools/call' } },
      'S',
    );
    const capture = t.capture();
    const [event] = analyze(capture).events;
    const chunk = capture.connections[0]?.chunks[0]?.bytes;
    if (!event || !chunk) throw new Error('no event');
    // Poison the bytes past what a 240-unit preview can reach: the preview still reads right, the whole data not.
    chunk.fill(0xff, 4 * 240 + 64);
    expect(event.dataPreview(240)).toBe('é'.repeat(240));
    expect(event.data.slice(0, 240)).toBe('é'.repeat(240));
    expect(event.data.includes('\ufffd')).toBe(true);
  });
});
