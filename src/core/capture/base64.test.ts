import { describe, expect, it } from 'vitest';
import { Base64Error, decodeBase64, encodeBase64 } from './base64';

function pseudoRandomBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let s = seed;
  for (let i = 0; i < length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    out[i] = s >>> 24;
  }
  return out;
}

describe('base64', () => {
  it('matches Node Buffer encoding for every tail length and round-trips', () => {
    for (let n = 0; n < 70; n++) {
      const bytes = pseudoRandomBytes(n, n + 1);
      const b64 = encodeBase64(bytes);
      expect(b64).toBe(Buffer.from(bytes).toString('base64'));
      expect(decodeBase64(b64)).toEqual(bytes);
    }
  });

  // Speed is measured by the benchmarks, not asserted here: a loaded machine must not turn a unit test red.
  it('round-trips megabytes exactly, as Node encodes them', () => {
    const bytes = pseudoRandomBytes(8 * 1024 * 1024, 7);
    const b64 = encodeBase64(bytes);
    expect(b64).toBe(Buffer.from(bytes).toString('base64'));
    const back = decodeBase64(b64);
    expect(back.length).toBe(bytes.length);
    expect(Buffer.from(back).equals(Buffer.from(bytes))).toBe(true);
  });

  it('accepts missing padding and line-wrapped input', () => {
    expect(new TextDecoder().decode(decodeBase64('aGVsbG8'))).toBe('hello');
    expect(new TextDecoder().decode(decodeBase64('aGVs\r\nbG8='))).toBe('hello');
  });

  it.each([
    ['aGV$bG8=', 3, 'unexpected character "$"'],
    ['aGVsbG8=x', 8, 'data after padding'],
    ['aGVsbG===', 8, "more than two '='"],
    ['aGVsbA=', 6, "wrong number of '='"],
    ['aGVsb', 5, 'single character'],
    ['aGVé', 3, 'unexpected character "é"'],
  ])('rejects %j at character %i', (input, index, reason) => {
    let caught: unknown;
    try {
      decodeBase64(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Base64Error);
    expect((caught as Base64Error).index).toBe(index);
    expect((caught as Base64Error).message).toContain(reason);
  });
});
