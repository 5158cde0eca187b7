import { describe, expect, it } from 'vitest';
import { BODY_CASES, PLAIN_BODIES } from './credentials.fixture';
import { seededRandom } from '../../sse/test-support';
import {
  maskEveryString,
  maskJsonSecrets,
  maskJsonSecretsInText,
  mayHoldSecrets,
  mayHoldSecretsInPart,
  type MaskedSpan,
} from './body';

const enc = new TextEncoder();
const dec = new TextDecoder();
const mask = (text: string): string => dec.decode(maskJsonSecrets(enc.encode(text)));
const jsonOf = (sse: string): unknown[] =>
  sse
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)) as unknown);

describe('body masking', () => {
  it.each(BODY_CASES)('$label: masked, same byte length, still valid JSON', ({ body, secret }) => {
    const masked = mask(body);
    expect(masked).not.toContain(secret);
    expect(enc.encode(masked).byteLength).toBe(enc.encode(body).byteLength);
    // A JSON body parses whole; an event stream's data lines each parse.
    const json = (text: string) => (text.startsWith('{') ? [JSON.parse(text) as unknown] : jsonOf(text));
    expect(json(masked)).toHaveLength(json(body).length);
  });

  it('masks every credential field at any depth, and nothing else', () => {
    const body = BODY_CASES[2]!.body;
    const masked = JSON.parse(mask(body)) as { id: number; result: Record<string, string> };
    expect(masked.id).toBe(9);
    expect(Object.keys(masked.result)).toEqual(['refresh_token', 'id_token', 'client_secret']);
    for (const value of Object.values(masked.result)) expect(value).toMatch(/^\*\*\*[0-9a-f]+$/);
  });

  it.each(PLAIN_BODIES)('%s is kept byte for byte (the same array)', (body) => {
    const bytes = enc.encode(body);
    expect(maskJsonSecrets(bytes)).toBe(bytes);
  });

  it('keeps the byte length of values with escapes and multi-byte characters', () => {
    const body = '{"password":"p\\"ä😀\\u00e9w"}';
    const masked = mask(body);
    expect(enc.encode(masked).byteLength).toBe(enc.encode(body).byteLength);
    expect(JSON.parse(masked)).toEqual({ password: expect.stringMatching(/^\*\*\*[0-9a-f]+$/) as unknown });
  });

  it('masks a value cut by a torn tail into the prefix of the whole value’s mask', () => {
    const whole = 'data: {"jsonrpc":"2.0","params":{"access_token":"eyJhbGciOiJIUzI1NiJ9.long-token-value"}}\n\n';
    const torn = whole.slice(0, whole.indexOf('long-token'));
    const maskedTorn = mask(torn);
    expect(maskedTorn).not.toContain('eyJhbGci');
    expect(maskedTorn.length).toBe(torn.length);
    // The rules compare a torn event with what a resume delivered (resume-not-honored): prefixes stay prefixes.
    expect(mask(whole).startsWith(maskedTorn)).toBe(true);
  });

  it('gives the same secret the same mask and different ones different masks, wherever they are', () => {
    const a = mask('{"token":"shared-secret-1"}');
    const b = mask('{"deep":{"token":"shared-secret-1"}}');
    const c = mask('{"token":"shared-secret-2"}');
    const valueOf = (text: string) => /"token":"([^"]*)"/.exec(text)![1];
    expect(valueOf(b)).toBe(valueOf(a));
    expect(valueOf(c)).not.toBe(valueOf(a));
  });

  it('masking twice changes nothing', () => {
    for (const { body } of BODY_CASES) {
      const once = enc.encode(mask(body));
      expect(maskJsonSecrets(once)).toBe(once);
    }
  });

  it('a stray quote in an SSE field line does not spill onto the next line', () => {
    const body = 'event: "odd\ndata: {"client_secret":"probe-stray"}\n\n';
    expect(mask(body)).not.toContain('probe-stray');
  });

  it('says where it masked, and masks request body text the same way', () => {
    const body = BODY_CASES[0]!.body;
    const spans: MaskedSpan[] = [];
    maskJsonSecrets(enc.encode(body), spans);
    expect(spans.map(({ from, to }) => body.slice(from, to))).toEqual(['probe-params-0019']);
    expect(maskJsonSecretsInText(body)).toBe(mask(body));
    expect(maskJsonSecretsInText(PLAIN_BODIES[0]!)).toBe(PLAIN_BODIES[0]);
  });
});

describe('the prefilter', () => {
  // Bodies made of what the masker reads: quotes, colons, blanks, escapes, line breaks, credential names in mixed
  // case and separators, names that only look like them, and plain text.
  const PARTS = [
    '"',
    '"',
    ':',
    ':',
    ' ',
    '\t',
    '\\',
    '\n',
    '{',
    '}',
    ',',
    'x',
    '2.0',
    'message',
    'progressToken',
    'tok',
    'token',
    'TOKEN',
    'access_token',
    'Api-Key',
    'client_secret',
    '_password_',
    'authorization',
    'id-token',
    'é',
    '"token"',
    '"Api-Key"',
    '"client_secret"',
    '"progressToken"',
    ':"',
    '": "',
    ' :\t"',
    '\\"',
    '"a"',
  ];

  it('says a body may hold a credential field whenever the full masker masks one (20,000 seeded bodies)', () => {
    const random = seededRandom(13);
    let masked = 0;
    let skipped = 0;
    const missed: string[] = [];
    for (let n = 0; n < 20_000; n++) {
      let text = '';
      const length = 1 + Math.floor(random() * 24);
      for (let k = 0; k < length; k++) text += PARTS[Math.floor(random() * PARTS.length)];
      const bytes = enc.encode(text);
      const full = maskEveryString(bytes);
      if (full !== bytes) masked++;
      // What the prefilter passes over has no mask; what it lets through is masked as the full masker does.
      if (!mayHoldSecrets(bytes)) {
        skipped++;
        if (full !== bytes || maskJsonSecrets(bytes) !== bytes) missed.push(text);
      } else if (dec.decode(maskJsonSecrets(bytes)) !== dec.decode(full)) missed.push(text);
    }
    expect(missed).toEqual([]);
    // Both sides are exercised: bodies the prefilter passes over, and bodies with masks.
    expect(masked).toBeGreaterThan(200);
    expect(skipped).toBeGreaterThan(2_000);
  });

  it('says some part of a body cut anywhere may hold a credential field whenever the whole may (20,000 seeded)', () => {
    const random = seededRandom(31);
    let whole = 0;
    let passed = 0;
    const missed: string[] = [];
    for (let n = 0; n < 20_000; n++) {
      let text = '';
      const length = 1 + Math.floor(random() * 24);
      for (let k = 0; k < length; k++) text += PARTS[Math.floor(random() * PARTS.length)];
      const bytes = enc.encode(text);
      const cuts = [
        ...new Set(Array.from({ length: Math.floor(random() * 5) }, () => Math.floor(random() * bytes.length))),
      ];
      const edges = [0, ...cuts.sort((a, b) => a - b), bytes.length];
      const parts = edges
        .slice(1)
        .map((end, i) => bytes.subarray(edges[i], end))
        .filter((p) => p.length > 0);
      const maybe = parts.some((part) => mayHoldSecretsInPart(part));
      if (mayHoldSecrets(bytes)) {
        whole++;
        if (!maybe) missed.push(`${text} cut at ${edges.join(',')}`);
      } else if (!maybe) passed++;
    }
    expect(missed).toEqual([]);
    // Both sides are exercised: bodies the whole check lets through, and cut bodies passed over.
    expect(whole).toBeGreaterThan(1_000);
    expect(passed).toBeGreaterThan(2_000);
  });

  it('passes over a stream of progress events, and catches a credential in the middle of one', () => {
    const progress = (n: number) =>
      `event: message\nid: ${n}\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"req-7","progress":${n},"message":"step ${n}: of it"}}\n\n`;
    const plain = enc.encode(Array.from({ length: 50 }, (_, n) => progress(n)).join(''));
    expect(mayHoldSecrets(plain)).toBe(false);
    const withSecret = enc.encode(`${progress(1)}data: {"params":{"x":1,"api_key" : "probe-k"}}\n\n${progress(2)}`);
    expect(mayHoldSecrets(withSecret)).toBe(true);
    expect(dec.decode(maskJsonSecrets(withSecret))).not.toContain('probe-k');
  });
});
