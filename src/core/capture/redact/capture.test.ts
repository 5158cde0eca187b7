import { describe, expect, it } from 'vitest';
import type { Capture, ConnectionRecord } from '../model';
import { sampleCapture } from '../samples.fixture';
import { maskJsonSecrets } from './body';
import { redactCapture, scrubStrings } from './capture';
import { BODY_CASES, SESSION_ID } from './credentials.fixture';
import { redactedTag } from './hash';

const enc = new TextEncoder();
const dec = new TextDecoder();
const withSession = (c: ConnectionRecord, id: string, where: 'request' | 'response'): ConnectionRecord =>
  where === 'request'
    ? { ...c, requestHeaders: [...c.requestHeaders, { name: 'mcp-session-id', value: id }] }
    : { ...c, responseHeaders: [...(c.responseHeaders ?? []), { name: 'Mcp-Session-Id', value: id }] };

function twoSessions(): Capture {
  const base = sampleCapture();
  const [post, get] = base.connections as [ConnectionRecord, ConnectionRecord];
  return {
    ...base,
    connections: [
      withSession({ ...post, id: 'a', requestHeaders: [] }, SESSION_ID, 'response'),
      withSession({ ...get, id: 'b', requestHeaders: [] }, 'other-session-id', 'request'),
      withSession({ ...get, id: 'c', requestHeaders: [] }, SESSION_ID, 'request'),
    ],
  };
}

const sessionHeader = (c: ConnectionRecord) =>
  [...c.requestHeaders, ...(c.responseHeaders ?? [])].find((h) => h.name.toLowerCase() === 'mcp-session-id')?.value;

describe('redactCapture', () => {
  it('aliases Mcp-Session-Id by first appearance, in request and response headers alike', () => {
    const { capture, scrub } = redactCapture(twoSessions());
    expect(capture.connections.map(sessionHeader)).toEqual([
      'redacted-session-1',
      'redacted-session-2',
      'redacted-session-1',
    ]);
    expect(scrub(`session ${SESSION_ID} and other-session-id`)).toBe(
      'session redacted-session-1 and redacted-session-2',
    );
  });

  it('keeps aliases it wrote before and never gives another session the same one', () => {
    const once = redactCapture(twoSessions()).capture;
    expect(redactCapture(once).capture.connections.map(sessionHeader)).toEqual(once.connections.map(sessionHeader));
    const mixed = twoSessions();
    mixed.connections[1] = withSession(
      { ...mixed.connections[1]!, requestHeaders: [] },
      'redacted-session-1',
      'request',
    );
    expect(redactCapture(mixed).capture.connections.map(sessionHeader)).toEqual([
      'redacted-session-2',
      'redacted-session-1',
      'redacted-session-2',
    ]);
  });

  it('masks bodies across chunk boundaries and cuts them back at the same sizes and times', () => {
    const capture = sampleCapture();
    const body = enc.encode(BODY_CASES[3]!.body);
    const first = capture.connections[0]!;
    // Cut inside the key and inside the value: the mask must see the body whole.
    const cuts = [BODY_CASES[3]!.body.indexOf('apiK') + 2, BODY_CASES[3]!.body.indexOf('probe-sse') + 4];
    first.chunks = [
      { t: 1, bytes: body.slice(0, cuts[0]) },
      { t: 2, bytes: body.slice(cuts[0], cuts[1]) },
      { t: 3, bytes: body.slice(cuts[1]) },
    ];
    const out = redactCapture(capture).capture.connections[0]!;
    expect(out.chunks.map((c) => [c.t, c.bytes.byteLength])).toEqual(
      first.chunks.map((c) => [c.t, c.bytes.byteLength]),
    );
    const text = out.chunks.map((c) => dec.decode(c.bytes)).join('');
    expect(text).not.toContain('probe-sse');
    expect(text).not.toContain('probe-pw');
  });

  it('tags URLs, the document and page URL, masks the request body, and scrubs error text', () => {
    const capture = sampleCapture();
    const conn = capture.connections[0]!;
    conn.url = 'http://127.0.0.1:8080/mcp?token=tok-in-url';
    conn.documentUrl = 'http://127.0.0.1:8080/app?code=the-code';
    conn.requestBody = BODY_CASES[0]!.body;
    conn.error = 'fetch http://127.0.0.1:8080/mcp?token=tok-in-url failed';
    capture.page = { url: 'http://127.0.0.1:8080/app?code=the-code', title: 'Demo' };
    const out = redactCapture(capture).capture;
    const c = out.connections[0]!;
    expect(c.url).toBe(`http://127.0.0.1:8080/mcp?token=${redactedTag('tok-in-url')}`);
    expect(c.documentUrl).toBe(`http://127.0.0.1:8080/app?code=${redactedTag('the-code')}`);
    expect(out.page?.url).toBe(c.documentUrl);
    expect(c.requestBody).not.toContain('probe-params-0019');
    expect(JSON.parse(c.requestBody!)).toMatchObject({ id: 7, method: 'tools/call' });
    expect(c.error).toBe(`fetch http://127.0.0.1:8080/mcp?token=${redactedTag('tok-in-url')} failed`);
    // The input is left as it was.
    expect(conn.url).toBe('http://127.0.0.1:8080/mcp?token=tok-in-url');
  });

  it('a capture with nothing to hide keeps its bodies as they were', () => {
    const capture = sampleCapture();
    const out = redactCapture(capture).capture;
    expect(out.connections.map((c) => c.chunks.map((k) => k.bytes))).toEqual(
      capture.connections.map((c) => c.chunks.map((k) => k.bytes)),
    );
    expect(out.connections[1]!.chunks[0]!.bytes).toBe(capture.connections[1]!.chunks[0]!.bytes);
  });

  it('scrubStrings reaches every string of findings written along', () => {
    const { scrub } = redactCapture(twoSessions());
    expect(scrubStrings([{ sessionKey: SESSION_ID, message: `on ${SESSION_ID}`, byteOffset: 3 }], scrub)).toEqual([
      { sessionKey: 'redacted-session-1', message: 'on redacted-session-1', byteOffset: 3 },
    ]);
  });
});

describe('body chunks are masked line by line, equal to masking the whole body', () => {
  it('for bodies cut at every kind of place (seeded): inside keys, values, line ends, CRLF, and lines over many chunks', () => {
    let seed = 11;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const fields = [
      '"access_token": "tok-1234"',
      '"Api-Key":"k-9"',
      '"password" : "p\\"w"',
      '"progress": 3',
      '"x": "y"',
      // A backslash before a line feed: the string the scan reads goes on past it, into the next line.
      '"a": "cut \\\n"token": "t-5"',
      // An escaped backslash, then a line feed that does end the string.
      '"b\\\\\n"secret": "s-6"',
    ];
    for (let round = 0; round < 400; round++) {
      let body = '';
      for (let line = 0; line < 1 + random(6); line++) {
        const parts = Array.from({ length: 1 + random(4) }, () => fields[random(fields.length)]);
        body += `data: {${parts.join(', ')}}${random(3) === 0 ? '\r\n' : '\n'}${random(2) === 0 ? '\n' : ''}`;
      }
      const bytes = enc.encode(body);
      const cuts = [...new Set(Array.from({ length: random(8) }, () => random(bytes.length)))].sort((a, b) => a - b);
      const edges = [0, ...cuts, bytes.length];
      const chunks = edges.slice(1).map((end, i) => ({ t: i, bytes: bytes.slice(edges[i], end) }));
      const record: ConnectionRecord = { ...sampleCapture().connections[0]!, id: 'z', requestHeaders: [], chunks };
      const redacted = redactCapture({ ...sampleCapture(), connections: [record] }).capture.connections[0]!;
      const whole = maskJsonSecrets(bytes);
      expect(redacted.chunks.map((c) => c.bytes.length)).toEqual(chunks.map((c) => c.bytes.length));
      expect(redacted.chunks.map((c) => c.t)).toEqual(chunks.map((c) => c.t));
      expect(dec.decode(Buffer.concat(redacted.chunks.map((c) => c.bytes))), body).toBe(dec.decode(whole));
    }
  });
});
