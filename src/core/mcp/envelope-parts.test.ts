// The parts reader against the whole text: for any text cut anywhere, scanEnvelopeParts either gives what the exact
// path classifies, or leaves the text to it; and it reads the long results it is for without that path.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../sse/test-support';
import { scanEnvelopeParts, skeletonOf } from './envelope-parts';
import { envelopeOf, parseMessages } from './jsonrpc';
import type { JsonRpcEnvelope } from './types';

function exact(text: string): JsonRpcEnvelope[] | undefined {
  const parsed = parseMessages(text);
  return parsed.ok ? parsed.messages.map(envelopeOf) : undefined;
}

/** `text` cut at `cuts` random places into parts of at least 16 chars (shorter ones make the reader give up). */
function cut(text: string, cuts: number, random: () => number): string[] {
  const at = [...new Set(Array.from({ length: cuts }, () => Math.floor(random() * text.length)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const end of at) {
    if (end - from < 16) continue;
    parts.push(text.slice(from, end));
    from = end;
  }
  parts.push(text.slice(from));
  return parts;
}

const long = (unit: string, n = 400) => unit.repeat(n);
const result = (text: string, id = '1') =>
  `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":${text}}]}}`;

const TEXTS = [
  result(JSON.stringify(long('lorem "ipsum" dolor\n sit \\ amet \u00e9 \u{1f600} '))),
  result(JSON.stringify(long('code();\n'))),
  result(JSON.stringify(long('plain words '))),
  `[${result(JSON.stringify(long('a\tb ')))},{"jsonrpc":"2.0","method":"notifications/progress","params":{"p":1}}]`,
  // A long string where the scanner reads one: the id, the method, a member name, jsonrpc.
  result(JSON.stringify('x'), JSON.stringify(long('id-'))),
  `{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(long('m/'))}}`,
  `{"jsonrpc":"2.0","id":1,${JSON.stringify(long('k'))}:1,"result":2}`,
  `{"jsonrpc":${JSON.stringify(long('2.0'))},"id":1,"result":2}`,
  // Broken: an invalid escape, a raw control character, no closing quote, an escape cut short at the end.
  result(`"${long('abc ')}\\x"`),
  result(`"${long('abc ')}\u0001"`),
  result(`"${long('abc ')}`),
  `{"jsonrpc":"2.0","id":1,"result":"${long('abc ')}\\u12`,
  result(`"${long('abc ')}\\u12G4"`),
  `"${long('a top-level string ')}"`,
  `{"jsonrpc":"2.0","id":1,"result":{"a":${JSON.stringify(long('v'))}},}`,
];

describe('scanEnvelopeParts', () => {
  it('agrees with the exact path on texts cut anywhere (seeded)', () => {
    const random = seededRandom(32);
    for (const text of TEXTS) {
      for (let round = 0; round < 60; round++) {
        const parts = cut(text, 1 + Math.floor(random() * 40), random);
        expect(parts.join('')).toBe(text);
        const scanned = scanEnvelopeParts(parts);
        expect({ text: text.slice(0, 80), envelopes: scanned ?? exact(text) }).toEqual({
          text: text.slice(0, 80),
          envelopes: exact(text),
        });
      }
    }
  });

  it('reads long results itself, and leaves out their long strings', () => {
    const random = seededRandom(7);
    for (const text of TEXTS.slice(0, 4)) {
      const parts = cut(text, 30, random);
      expect(scanEnvelopeParts(parts)).toEqual(exact(text));
      expect(skeletonOf(parts)?.length).toBeLessThan(400);
    }
  });

  it('gives up on parts too short to hold an escape', () => {
    expect(skeletonOf(['{"a":', '"b"}'])).toBeUndefined();
  });
});
