// Redaction on real SDK traffic (fixtures/, recorded by the lab): a recorded capture rewritten to carry the probe's
// credentials everywhere (headers, URLs, the document URL, request bodies, every JSON-RPC message in the streams,
// a torn tail cut inside a token) analyzes, once redacted, to the same findings with the session ids aliased; no
// planted secret survives in the capture or HAR written from it.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from './analyze';
import { parseCapture, serializeCapture } from './capture/format';
import { exportHar, importHar } from './capture/har';
import type { BodyChunk, Capture, ConnectionRecord } from './capture/model';
import { redactCapture, scrubStrings } from './capture/redact/capture';
import { HEADER_CASES, SESSION_ID } from './capture/redact/credentials.fixture';
import { FIXTURES_DIR, readFixture } from './fixtures-dir.fixture';

const scenarios = readdirSync(FIXTURES_DIR).filter((d) => existsSync(join(FIXTURES_DIR, d, 'expected.json')));
const enc = new TextEncoder();
const dec = new TextDecoder();

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.planted-stream-token-4f1c2d9e8b7a6f5e4d3c2b1a';
const REFRESH = 'planted-refresh-token-7c6b5a49382716';
const META = 'planted-meta-bearer-0a1b2c3d4e5f';
const PARAM = 'planted-param-api-key-99887766';
const QUERY = 'planted-query-token-5544332211';
const PAGE = 'planted-page-inspector-token-1029';

/** After every `after` in the body, `insert`; chunk boundaries kept where they were in the recorded bytes. */
const PLANTS: readonly [after: string, insert: string][] = [
  ['data: {', `"access_token":"${TOKEN}",`],
  ['"result":{', `"refresh_token":"${REFRESH}",`],
];

function plantBody(chunks: readonly BodyChunk[]): BodyChunk[] {
  const body = new Uint8Array(chunks.flatMap((c) => [...c.bytes]));
  const inserts: [at: number, bytes: Uint8Array][] = [];
  for (const [after, insert] of PLANTS) {
    const needle = enc.encode(after);
    for (let i = 0; i + needle.length <= body.length; i++)
      if (needle.every((b, k) => body[i + k] === b)) inserts.push([i + needle.length, enc.encode(insert)]);
  }
  inserts.sort((a, b) => a[0] - b[0]);
  let from = 0;
  let next = 0;
  return chunks.map((chunk) => {
    const to = from + chunk.bytes.byteLength;
    const parts: number[] = [];
    for (let i = from; i < to; i++) {
      while (next < inserts.length && (inserts[next] as [number, Uint8Array])[0] === i)
        parts.push(...(inserts[next++] as [number, Uint8Array])[1]);
      parts.push(body[i] as number);
    }
    // An insert right at this chunk's end goes with it.
    while (next < inserts.length && (inserts[next] as [number, Uint8Array])[0] === to)
      parts.push(...(inserts[next++] as [number, Uint8Array])[1]);
    from = to;
    return { t: chunk.t, bytes: new Uint8Array(parts) };
  });
}

/** A body that ends inside an event: cut it again inside the token planted in that event (chunks as recorded). */
function cutInsideToken(chunks: BodyChunk[]): BodyChunk[] {
  const body = dec.decode(new Uint8Array(chunks.flatMap((c) => [...c.bytes])));
  // Any of the three SSE line ends: the Python SDK frames with CRLF, where a whole body ends in \r\n\r\n.
  const boundaries = [...body.matchAll(/\r\n\r\n|\n\n|\r\r/g)];
  const lastBoundary = boundaries.length > 0 ? (boundaries.at(-1)?.index ?? -1) : -1;
  if (chunks.length === 0 || /(\r\n\r\n|\n\n|\r\r)$/.test(body)) return chunks;
  const at = body.lastIndexOf(TOKEN);
  if (at < 0 || at < lastBoundary) return chunks; // no token (a JSON body), or the torn event has none
  let left = enc.encode(body.slice(0, at + 20)).byteLength;
  const out: BodyChunk[] = [];
  for (const chunk of chunks) {
    if (left <= 0) break;
    out.push({ t: chunk.t, bytes: chunk.bytes.slice(0, left) });
    left -= chunk.bytes.byteLength;
  }
  return out;
}

/** The recorded connection, carrying the probe's credentials the usual ways. */
function plantConnection(c: ConnectionRecord): ConnectionRecord {
  const legacy = c.url.includes('sessionId=');
  const out: ConnectionRecord = {
    ...c,
    // 2024-11-05 POSTs must match the endpoint their stream announced (in a body): their URL stays.
    url: legacy ? c.url : `${c.url}${c.url.includes('?') ? '&' : '?'}access_token=${QUERY}`,
    documentUrl: `http://probe:pw-${PAGE}@127.0.0.1:47193/demo?MCP_INSPECTOR_API_TOKEN=${PAGE}`,
    requestHeaders: [
      ...c.requestHeaders,
      ...HEADER_CASES.filter((h) => !h.response).map(({ name, value }) => ({ name, value })),
    ],
    chunks: cutInsideToken(plantBody(c.chunks)),
  };
  if (c.responseHeaders)
    out.responseHeaders = [
      ...c.responseHeaders,
      ...HEADER_CASES.filter((h) => h.response).map(({ name, value }) => ({ name, value })),
    ];
  if (c.requestBody !== undefined)
    out.requestBody = c.requestBody.replaceAll(
      '"params":{',
      `"params":{"_meta":{"authorization":"Bearer ${META}"},"apiKey":"${PARAM}",`,
    );
  return out;
}

function planted(scenario: string): Capture {
  const { har, ndjson } = readFixture(scenario);
  const capture = importHar(har, { chunksNdjson: ndjson });
  return {
    ...capture,
    page: { url: `http://127.0.0.1:47193/demo?MCP_INSPECTOR_API_TOKEN=${PAGE}` },
    connections: capture.connections.map(plantConnection),
  };
}

const sessionIds = (capture: Capture): string[] => [
  ...new Set(
    capture.connections.flatMap((c) =>
      [...c.requestHeaders, ...(c.responseHeaders ?? [])]
        .filter((h) => h.name.toLowerCase() === 'mcp-session-id')
        .map((h) => h.value),
    ),
  ),
];

/** What a capture shows a reader: heads, URLs and bodies as text. */
function visibleText(capture: Capture): string {
  return JSON.stringify(capture, (key, value: unknown) =>
    key === 'bytes' && value instanceof Uint8Array ? dec.decode(value) : value,
  );
}

const SECRETS = [TOKEN, REFRESH, META, PARAM, QUERY, PAGE, ...HEADER_CASES.map((h) => h.secret)];

describe('redaction on recorded SDK traffic', () => {
  it('the rewrite plants every secret in every recording, and keeps what the recording shows', () => {
    for (const scenario of scenarios) {
      const capture = planted(scenario);
      const text = visibleText(capture);
      for (const secret of SECRETS) expect(text, `${scenario}: ${secret}`).toContain(secret);
      const { har, ndjson } = readFixture(scenario);
      const rulesOf = (c: Capture) => analyze(c).findings.map((f) => f.rule);
      expect(rulesOf(capture), scenario).toEqual(rulesOf(importHar(har, { chunksNdjson: ndjson })));
    }
  });

  it.each(scenarios.map((s) => [s]))('%s: the same findings before and after, session ids aliased', (scenario) => {
    const capture = planted(scenario);
    const before = analyze(capture);
    const redaction = redactCapture(capture);
    const after = analyze(redaction.capture);
    expect(after.findings).toEqual(scrubStrings(before.findings, redaction.scrub));
    // Grouping unchanged: the same sessions with the same connections, keyed by the aliases.
    expect(after.sessions.map((s) => [s.key, s.connectionIds])).toEqual(
      before.sessions.map((s) => [redaction.scrub(s.key), s.connectionIds]),
    );
    expect(after.events.length).toBe(before.events.length);
    // Byte offsets and chunk boundaries as recorded.
    const sizes = (c: Capture) => c.connections.map((conn) => conn.chunks.map((chunk) => chunk.bytes.byteLength));
    expect(sizes(redaction.capture)).toEqual(sizes(capture));
    for (const id of sessionIds(capture)) expect(JSON.stringify(after.sessions)).not.toContain(id);
  });

  it.each(scenarios.map((s) => [s]))('%s: no planted secret in the capture or HAR written', (scenario) => {
    const capture = planted(scenario);
    const findings = analyze(capture).findings;
    const written = [serializeCapture(capture, { findings }), exportHar(capture)];
    const shown = [
      ...written,
      visibleText(parseCapture(written[0] as string)),
      visibleText(importHar(written[1] as string)),
    ];
    for (const text of shown) {
      for (const secret of [...SECRETS, ...sessionIds(capture)]) expect(text).not.toContain(secret);
    }
    // What was written reads back to the same findings as the redacted capture.
    const redacted = analyze(redactCapture(capture).capture).findings;
    expect(analyze(parseCapture(written[0] as string)).findings).toEqual(redacted);
    expect(analyze(importHar(written[1] as string)).findings).toEqual(redacted);
    expect(JSON.parse(written[0] as string).findings).toEqual(JSON.parse(JSON.stringify(redacted)));
  });

  it('cut-mid-event: the torn tail, cut inside a planted token, is masked and still a prefix of the replay', () => {
    const capture = planted('cut-mid-event');
    const cut = capture.connections.find((c) => c.end === 'network-error')!;
    const tail = dec.decode(cut.chunks.at(-1)!.bytes);
    expect(tail.endsWith(TOKEN.slice(0, 20))).toBe(true);
    const redacted = redactCapture(capture).capture.connections.find((c) => c.id === cut.id)!;
    const maskedTail = dec.decode(redacted.chunks.at(-1)!.bytes);
    expect(maskedTail).not.toContain(TOKEN.slice(0, 20));
    expect(maskedTail.length).toBe(tail.length);
    // The resume delivers the interrupted event whole: masked, it still begins with the masked torn bytes.
    const bodyOf = (c: ConnectionRecord) => dec.decode(new Uint8Array(c.chunks.flatMap((chunk) => [...chunk.bytes])));
    const tornEvent = bodyOf(redacted).slice(bodyOf(redacted).lastIndexOf('\n\n') + 2);
    expect(tornEvent).toContain('"access_token":"***');
    const resume = redactCapture(capture).capture.connections.find(
      (c) => c.method === 'GET' && bodyOf(c).includes(tornEvent.slice(0, 80)),
    )!;
    expect(bodyOf(resume)).toContain(tornEvent);
    expect(analyze(capture).findings.map((f) => f.rule)).toContain('torn-event-reconnect');
  });

  it('the opt-in keeps everything', () => {
    const capture = planted('clean');
    expect(parseCapture(serializeCapture(capture, { revealSecrets: true }))).toEqual(capture);
    expect(importHar(exportHar(capture, { revealSecrets: true }))).toEqual(capture);
  });

  it('the probe session id becomes an alias in every header that carries it', () => {
    const capture = planted('clean');
    const ids = sessionIds(capture);
    const renamed: Capture = {
      ...capture,
      connections: capture.connections.map((c) => ({
        ...c,
        requestHeaders: c.requestHeaders.map((h) => (h.value === ids[0] ? { ...h, value: SESSION_ID } : h)),
        ...(c.responseHeaders && {
          responseHeaders: c.responseHeaders.map((h) => (h.value === ids[0] ? { ...h, value: SESSION_ID } : h)),
        }),
      })),
    };
    const redaction = redactCapture(renamed);
    expect(sessionIds(redaction.capture)).toEqual(['redacted-session-1']);
    expect(redaction.scrub(`session ${SESSION_ID} got 404`)).toBe('session redacted-session-1 got 404');
  });
});
