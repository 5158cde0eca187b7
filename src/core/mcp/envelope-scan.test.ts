// The scanner against the exact path: for every text, scanEnvelopes either gives what parseMessages classifies, or
// leaves the text to it. Hand-picked edge cases of the grammar and of classification, a seeded generator of JSON
// (and of JSON broken in one place), and every SSE event of every recording in fixtures/.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze';
import { importHar } from '../capture/har';
import { FIXTURES_DIR, readFixture } from '../fixtures-dir.fixture';
import { seededRandom } from '../sse/test-support';
import { scanEnvelopes } from './envelope-scan';
import { envelopeOf, parseMessages } from './jsonrpc';
import type { JsonRpcEnvelope } from './types';

function exact(text: string): JsonRpcEnvelope[] | undefined {
  const parsed = parseMessages(text);
  return parsed.ok ? parsed.messages.map(envelopeOf) : undefined;
}

/** The scanner agrees with the exact path: the same envelopes, or none where the exact path found no message. */
function agrees(text: string): void {
  const scanned = scanEnvelopes(text);
  // Undefined: left to the exact path, which is then what classifies the text.
  expect({ text, envelopes: scanned ?? exact(text) }).toEqual({ text, envelopes: exact(text) });
}

/** Whether the scanner must read `text` itself: a message or batch the exact path classifies, no cancellation. */
function readableWithoutEscapes(text: string): boolean {
  return exact(text)?.every((e) => e.method !== 'notifications/cancelled') === true;
}

const REQUEST = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{}}}';

describe('scanEnvelopes', () => {
  it('reads the usual messages without the exact path, as parseMessages does', () => {
    const usual = [
      REQUEST,
      '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"a","progress":1.5e3}}',
      '{"jsonrpc":"2.0","id":"s-1","result":{"content":[{"type":"text","text":"a \\"quoted\\" \\u00e9 word"}]}}',
      '{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
      '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}',
      `[${REQUEST},{"jsonrpc":"2.0","method":"notifications/initialized"}]`,
      `  ${REQUEST}  `,
      '{"result":{},"id":-0,"jsonrpc":"2.0"}',
      '{"jsonrpc":"2.0","id":1,"result":null}',
      '{"jsonrpc":"2.0",\n\t"id":1,\r\n"result":1}',
    ];
    for (const text of usual) {
      expect(scanEnvelopes(text), text).toBeDefined();
      agrees(text);
    }
  });

  it('reads a long string of many escapes and no quote until its end once (not again per escape)', () => {
    const quoted = JSON.stringify('  const value = compute(input, options); // a line of code\n'.repeat(20_000));
    const result = (text: string) => `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":${text}}]}}`;
    // 1.2 MB: ~1 ms here; when the search for the closing quote ran to it again after each of the 20,000 escapes, ~75 ms.
    expect(scanEnvelopes(result(quoted))).toEqual([{ kind: 'response', id: 1 }]);
    // The same string broken at its end (an invalid escape, a raw control character, no closing quote): left over.
    const open = quoted.slice(0, -1);
    for (const broken of [`${open}\\x"`, `${open}\u0001"`, open, `${open}\\`]) {
      expect(scanEnvelopes(result(broken))).toBeUndefined();
      agrees(result(broken));
    }
  });

  it('takes the last of duplicate members, as JSON.parse does; escaped members are left to the exact path', () => {
    const text = '{"jsonrpc":"1.0","id":1,"method":"a","id":2,"method":"b","jsonrpc":"2.0","result":{"x":"\\"y\\""}}';
    expect(scanEnvelopes(text)).toEqual([{ kind: 'request', id: 2, method: 'b' }]);
    for (const spelled of [
      '{"jsonrpc":"2.0","\\u0069d":1,"result":1}',
      '{"jsonrpc":"2.0","id":"\\u0031","result":1}',
      '{"jsonrpc":"2\\u002e0","id":1,"result":1}',
    ]) {
      expect(scanEnvelopes(spelled), spelled).toBeUndefined();
      expect(exact(spelled)).toEqual([{ kind: 'response', id: spelled.includes('"\\u0031"') ? '1' : 1 }]);
    }
  });

  it('leaves to the exact path what is not one JSON-RPC message or batch of them', () => {
    const others = [
      '',
      '[DONE]',
      '[]',
      '{}',
      '[1]',
      `[${REQUEST},2]`,
      '{"jsonrpc":"2.0","id":{"a":1},"result":1}',
      '{"jsonrpc":"2.0","id":1e400,"result":1}',
      '{"jsonrpc":"2.0","id":true,"method":"x"}',
      '{"jsonrpc":2,"id":1,"result":1}',
      '{"jsonrpc":"2.0","id":1}',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}',
      '{"object":"chat.completion.chunk","choices":[]}',
      `${REQUEST}x`,
      REQUEST.slice(0, -1),
      `${REQUEST}${REQUEST}`,
      '{"jsonrpc":"2.0","id":1,"result":"tab\tinside"}',
      '{"jsonrpc":"2.0","id":01,"result":1}',
      '{"jsonrpc":"2.0","id":1.,"result":1}',
      '{"jsonrpc":"2.0","id":1,"result":[1,]}',
      '{"jsonrpc":"2.0","id":1,"result":{"a":1,}}',
      '{"jsonrpc":"2.0","id":1,"result":"\\x"}',
      '{"jsonrpc":"2.0","id":1,"result":"\\u12"}',
      '{"jsonrpc":"2.0","id":1,"result":tru}',
      '{"jsonrpc":"2.0","id":1,"result":{"a" 1}}',
      '{"jsonrpc":"2.0","id":1,"result":[[[[]]]',
    ];
    for (const text of others) {
      expect(scanEnvelopes(text), text).toBeUndefined();
      agrees(text);
    }
  });

  it('agrees with the exact path on 20,000 generated texts, valid and broken in one place', () => {
    const random = seededRandom(8);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const strings = [
      '',
      'a',
      '2.0',
      'tools/call',
      'é\u2028',
      '\\"',
      '\\\\',
      '\\u0041',
      '\\n',
      'notifications/cancelled',
    ];
    const numbers = ['0', '-0', '1', '-12', '3.25', '1e3', '2E-2', '1e400', '9007199254740993'];
    const value = (depth: number): string => {
      const r = random();
      if (depth > 3 || r < 0.3) return pick([`"${pick(strings)}"`, pick(numbers), 'true', 'false', 'null']);
      if (r < 0.65) return `[${Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1)).join(',')}]`;
      return object(depth + 1);
    };
    const keys = ['jsonrpc', 'id', 'method', 'result', 'error', 'params', '\\u0069d', 'x'];
    const member = (depth: number): string => {
      const key = pick(keys);
      const r = random();
      if (key === 'jsonrpc' && r < 0.8) return `"jsonrpc":"2.0"`;
      if (key === 'method' && r < 0.7)
        return `"method":"${pick(['tools/call', 'notifications/progress', 'notifications/cancelled'])}"`;
      if ((key === 'id' || key === '\\u0069d') && r < 0.7) return `"${key}":${pick([...numbers, '"s1"', 'null'])}`;
      return `"${key}":${value(depth)}`;
    };
    const object = (depth: number): string =>
      `{${Array.from({ length: Math.floor(random() * 5) }, () => member(depth)).join(pick([',', ' , ']))}}`;
    const message = (): string => {
      const count = 1 + Math.floor(random() * 4);
      return `{${['"jsonrpc":"2.0"', ...Array.from({ length: count }, () => member(1))].join(',')}}`;
    };
    const broken = (text: string): string => {
      const at = Math.floor(random() * (text.length + 1));
      const r = random();
      if (r < 0.33) return text.slice(0, at);
      if (r < 0.66) return text.slice(0, at) + pick([',', '"', '}', ']', ':', ' ', '\\', 'x', '\t']) + text.slice(at);
      return text.slice(0, at) + text.slice(at + 1);
    };
    let scanned = 0;
    let scannedWithEscapes = 0;
    for (let n = 0; n < 20_000; n++) {
      const one =
        random() < 0.8 ? message() : `[${Array.from({ length: Math.floor(random() * 3) }, message).join(',')}]`;
      const text = random() < 0.3 ? broken(one) : one;
      agrees(text);
      // Without escapes, nothing the scanner could read is left to the exact path (only cancellations are);
      // escapes are read too where they are not in a member that counts.
      const read = scanEnvelopes(text) !== undefined;
      if (text.includes('\\')) {
        if (read) scannedWithEscapes++;
        continue;
      }
      expect(read, text).toBe(readableWithoutEscapes(text));
      if (read) scanned++;
    }
    expect(scanned).toBeGreaterThan(1_000);
    expect(scannedWithEscapes).toBeGreaterThan(200);
  });

  it('agrees with the exact path on texts that follow texts alike up to a point (where it resumes a scan)', () => {
    const random = seededRandom(21);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const progress = (n: number, message: string) =>
      `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"req-7","progress":${n},"total":9,"message":"${message}"}}`;
    const tails = [
      '1,"total":9}}',
      '1 , "total":9}}',
      '"x"}}',
      '1}',
      '1,"total":9}}x',
      '1,"total":9,}}',
      '{"a":[1]}}}',
    ];
    let resumable = 0;
    const unread: string[] = [];
    for (let n = 0; n < 5_000; n++) {
      const base = progress(n, pick(['step', 'a \\"b\\"', 'é']));
      // The same shape again, then one cut or changed at or after any place: before, at and after a resume point.
      agrees(base);
      agrees(progress(n + 1, 'step'));
      const at = Math.floor(random() * base.length);
      const variant = pick([
        () => base.slice(0, at),
        () => base.slice(0, at) + pick([' ', ',', '"', '}', ':', '\\', 'x']) + base.slice(at),
        () => base.slice(0, at) + base.slice(at + 1),
        () => `${base.slice(0, base.indexOf('"progress":') + 11)}${pick(tails)}`,
        () => `${base.slice(0, base.indexOf('"params":'))}"id":${n},"result":{}}`,
        () => `[${base},${base}]`,
        // Blanks right where the last text's resume point is.
        () => base.replace(',"progress":', pick([', "progress":', ',\t"progress":', ' ,"progress":'])),
      ])();
      agrees(variant);
      const read = scanEnvelopes(variant) !== undefined;
      // Resumed or not, what it can read it reads (only escapes and cancellations go to the exact path).
      if (!variant.includes('\\') && read !== readableWithoutEscapes(variant)) unread.push(variant);
      if (read) resumable++;
    }
    expect(unread).toEqual([]);
    expect(resumable).toBeGreaterThan(1_000);
  });

  it('agrees with the exact path on every SSE event of every committed recording', () => {
    let events = 0;
    for (const name of readdirSync(FIXTURES_DIR, { withFileTypes: true }).filter((d) => d.isDirectory())) {
      const { har, ndjson } = readFixture(name.name);
      const analysis = analyze(importHar(har, { chunksNdjson: ndjson }));
      for (const event of analysis.events) {
        agrees(event.data);
        events++;
      }
    }
    expect(events).toBeGreaterThan(150);
  });
});
