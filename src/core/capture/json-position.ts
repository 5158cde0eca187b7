// Runs anywhere (pure core): finds where a JSON text first goes wrong. Engines do not always say
// (V8 often names only the token), so this runs after JSON.parse has failed; it is never on the fast path.

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Character position of the first syntax error in `text` (its length when it ends early), or -1 if valid. */
export function jsonErrorOffset(text: string): number {
  const n = text.length;
  let i = 0;
  // Open containers: '{' or '['; `expect` says what the grammar wants next.
  const stack: number[] = [];
  type Expect = 'value' | 'key' | 'colon' | 'after-value' | 'value-or-close' | 'key-or-close';
  let expect: Expect = 'value';
  const skipWs = (): void => {
    while (i < n && WS.has(text.charCodeAt(i))) i++;
  };
  for (;;) {
    skipWs();
    if (i >= n) return stack.length === 0 && expect === 'after-value' ? -1 : n;
    const c = text.charCodeAt(i);
    switch (expect) {
      case 'value-or-close':
      case 'value':
        if (expect === 'value-or-close' && c === 0x5d) {
          stack.pop();
          i++;
          expect = 'after-value';
        } else if (c === 0x7b || c === 0x5b) {
          stack.push(c);
          i++;
          expect = c === 0x7b ? 'key-or-close' : 'value-or-close';
        } else {
          const end = scalarEnd(text, i);
          if (end < 0) return -end - 1;
          i = end;
          expect = 'after-value';
        }
        break;
      case 'key-or-close':
      case 'key':
        if (expect === 'key-or-close' && c === 0x7d) {
          stack.pop();
          i++;
          expect = 'after-value';
        } else if (c === 0x22) {
          const end = stringEnd(text, i);
          if (end < 0) return -end - 1;
          i = end;
          expect = 'colon';
        } else return i;
        break;
      case 'colon':
        if (c !== 0x3a) return i;
        i++;
        expect = 'value';
        break;
      case 'after-value': {
        const top = stack.at(-1);
        if (top === undefined) return i; // data after the document
        if (c === 0x2c) {
          i++;
          expect = top === 0x7b ? 'key' : 'value';
        } else if ((c === 0x7d && top === 0x7b) || (c === 0x5d && top === 0x5b)) {
          stack.pop();
          i++;
        } else return i;
        break;
      }
    }
  }
}

/** End of a string starting at `start`, or -(errorOffset + 1). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -(i + 1);
    if (c === 0x5c) {
      const e = text[i + 1];
      if (e === undefined) return -(text.length + 1);
      if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return -(i + 2);
        i += 5;
      } else if ('"\\/bfnrt'.includes(e)) i++;
      else return -(i + 2); // the character after the backslash, as V8 reports it
    }
  }
  return -(text.length + 1);
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** End of a string, number or literal starting at `start`, or -(errorOffset + 1). */
function scalarEnd(text: string, start: number): number {
  if (text.charCodeAt(start) === 0x22) return stringEnd(text, start);
  for (const literal of ['true', 'false', 'null']) {
    if (text.startsWith(literal, start)) return start + literal.length;
    if (literal.startsWith(text.slice(start)) && text.length > start) return -(text.length + 1);
  }
  NUMBER.lastIndex = start;
  const m = NUMBER.exec(text);
  if (m && m[0] !== '' && m[0] !== '-') {
    const end = start + m[0].length;
    if (end === text.length || !/[0-9.eE+-]/.test(text[end]!)) return end;
    return -(end + 1);
  }
  return -(start + 1);
}
