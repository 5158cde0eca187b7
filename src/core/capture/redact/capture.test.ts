import { describe, expect, it } from 'vitest';
import type { Capture, ConnectionRecord } from '../model';
import { sampleCapture } from '../samples.fixture';
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
