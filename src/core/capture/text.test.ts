import { describe, expect, it } from 'vitest';
import { InputError } from './errors';
import { decodeUtf8OrThrow, firstInvalidUtf8, parseJsonText, tryDecodeUtf8 } from './text';

describe('UTF-8', () => {
  it.each([
    [[0x61, 0x62], -1],
    [[0x61, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80], -1],
    [[0x61, 0xff], 1],
    [[0x61, 0x62, 0xc0, 0x80], 2], // overlong NUL
    [[0xed, 0xa0, 0x80], 0], // UTF-16 surrogate
    [[0x61, 0xe2, 0x82], 1], // truncated at end
    [[0xf4, 0x90, 0x80, 0x80], 0], // above U+10FFFF
    [[0x61, 0x80], 1], // lone continuation byte
  ])('first invalid offset of %j is %i', (bytes, offset) => {
    expect(firstInvalidUtf8(new Uint8Array(bytes))).toBe(offset);
    expect(tryDecodeUtf8(new Uint8Array(bytes)) === undefined).toBe(offset !== -1);
  });

  it('reports the byte offset in an InputError', () => {
    const bytes = new TextEncoder().encode('{"a":"é"}');
    const broken = new Uint8Array([...bytes.subarray(0, 6), 0xfe, ...bytes.subarray(6)]);
    expect(() => decodeUtf8OrThrow(broken)).toThrow(new InputError('', 'invalid UTF-8 at byte offset 6'));
  });
});

describe('parseJsonText', () => {
  function failure(text: string): InputError {
    try {
      parseJsonText(text, 'where');
    } catch (error) {
      if (error instanceof InputError) return error;
      throw error;
    }
    throw new Error('expected an InputError');
  }

  it('names line, column and character of a syntax error', () => {
    const error = failure('{\n  "a": 1,\n  "b" 2\n}');
    expect(error.path).toBe('where');
    expect(error.detail).toMatch(/^malformed JSON at line 3, column 7 \(character 18\): \S/);
  });

  it('says a truncated document ends early', () => {
    expect(failure('{"log": {"entries": [').detail).toMatch(/^malformed JSON at end of input \(character 21\)/);
    expect(failure('').detail).toMatch(/^malformed JSON at end of input \(character 0\)/);
  });

  it('returns the parsed value when valid', () => {
    expect(parseJsonText('{"a":[1,"x"]}')).toEqual({ a: [1, 'x'] });
  });
});
