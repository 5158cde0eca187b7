import { describe, expect, it } from 'vitest';
import { jsonErrorOffset } from './json-position';

describe('jsonErrorOffset', () => {
  it.each([
    ['{"a":[1,2.5e3,-0,"x\\u00e9\\n",true,false,null],"b":{}}', -1],
    ['  [ ]  ', -1],
    ['hello', 0],
    ['{"a":tru}', 5],
    ['{"a":1}x', 7],
    ['[1,,2]', 3],
    ['{"a":"\\q"}', 7],
    ['01', 1],
    ['{"a" 1}', 5],
    ['{"a":1,}', 7],
    ['{1:2}', 1],
    ['["a\nb"]', 3],
    ['{"log": {"entries": [', 21],
    ['"abc', 4],
    ['', 0],
    ['[1}', 2],
  ])('%j -> %i', (text, offset) => {
    expect(jsonErrorOffset(text)).toBe(offset);
    expect(offset === -1).toBe(isValid(text));
  });

  it('agrees with V8 wherever V8 names a position', () => {
    for (const text of ['{"a":1}x', '01', '{"a" 1}', '{"a":1,}', '["a\nb"]', '{"a":"\\q"}']) {
      const reported = /position (\d+)/.exec(errorMessage(text))?.[1];
      expect(jsonErrorOffset(text)).toBe(Number(reported));
    }
  });
});

function isValid(text: string): boolean {
  return errorMessage(text) === '';
}

function errorMessage(text: string): string {
  try {
    JSON.parse(text);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}
