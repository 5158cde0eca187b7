import { describe, expect, it } from 'vitest';
import { BODY_CASES, PLAIN_BODIES } from './credentials.fixture';
import { maskJsonSecrets, maskJsonSecretsInText, type MaskedSpan } from './body';

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
