// Runs anywhere (pure core): HAR 1.2 export. Standard fields for other tools, plus `_`-prefixed fields
// (exact times, `_chunks` with per-chunk times, `_streamState`) so importHar restores the capture exactly.
import { TextEncoder } from '../web/globals';
import { encodeBase64 } from './base64';
import { headerValue } from './headers';
import type { Capture, ConnectionRecord, EndReason } from './model';
import type { JsonObject } from './read';
import { tryDecodeUtf8 } from './text';
import { concatBytes } from './bytes';
import { redactCapture } from './redact/capture';

/**
 * Writes a capture as HAR 1.2: standard fields for other tools, plus `_`-prefixed fields (exact times, per-chunk
 * `_chunks`, `_streamState`) so {@link importHar} restores the capture exactly. Secrets are redacted
 * (docs/redaction.md) unless `options.revealSecrets` is true.
 * @param recorded the raw records to write.
 * @param options.revealSecrets keep credentials, session ids and body secrets as recorded (the user's opt-in).
 * @returns the HAR file's JSON text.
 */
export function exportHar(recorded: Capture, options?: { revealSecrets?: boolean }): string {
  const capture = options?.revealSecrets === true ? recorded : redactCapture(recorded).capture;
  const page = capture.page;
  const log: JsonObject = {
    version: '1.2',
    creator: { name: capture.tool.name, version: capture.tool.version },
    pages: page
      ? [
          {
            startedDateTime: isoTime(firstStart(capture) ?? capture.createdAt),
            id: 'page_1',
            title: page.title ?? page.url,
            pageTimings: {},
            _url: page.url,
          },
        ]
      : [],
    entries: capture.connections.map((c) => entryFor(c, page ? 'page_1' : undefined)),
    _createdAt: capture.createdAt,
    _observedUntil: capture.observedUntil,
  };
  return JSON.stringify({ log }, null, 2);
}

function entryFor(c: ConnectionRecord, pageref: string | undefined): JsonObject {
  const body = concatBytes(c.chunks.map((chunk) => chunk.bytes));
  const text = tryDecodeUtf8(body);
  const wait = c.responseTime === undefined ? 0 : nonNegative(c.responseTime - c.startTime);
  const receive = c.responseTime === undefined || c.endTime === undefined ? 0 : nonNegative(c.endTime - c.responseTime);
  let offset = 0;
  const chunks = c.chunks.map((chunk) => {
    const slice = { t: chunk.t, offset, length: chunk.bytes.length };
    offset += chunk.bytes.length;
    return slice;
  });
  return {
    pageref,
    startedDateTime: isoTime(c.startTime),
    time: wait + receive,
    request: {
      method: c.method,
      url: c.url,
      httpVersion: '',
      cookies: [],
      headers: c.requestHeaders.map((h) => ({ name: h.name, value: h.value })),
      queryString: queryString(c.url),
      postData:
        c.requestBody === undefined
          ? undefined
          : { mimeType: headerValue(c.requestHeaders, 'content-type') ?? '', text: c.requestBody },
      headersSize: -1,
      bodySize: c.requestBody === undefined ? 0 : new TextEncoder().encode(c.requestBody).length,
    },
    response: {
      status: c.status ?? 0,
      statusText: c.statusText ?? '',
      httpVersion: '',
      cookies: [],
      headers: (c.responseHeaders ?? []).map((h) => ({ name: h.name, value: h.value })),
      content: {
        size: body.length,
        mimeType: headerValue(c.responseHeaders, 'content-type') ?? '',
        // A body the source file lacked stays absent, so a re-import says so again.
        ...(c.bodyMissing ? {} : text === undefined ? { text: encodeBase64(body), encoding: 'base64' } : { text }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: body.length,
      _error: c.error,
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait, receive },
    _id: c.id,
    _source: c.source,
    _documentUrl: c.documentUrl,
    _startTime: c.startTime,
    _responseTime: c.responseTime,
    _endTime: c.endTime,
    _streamState: streamState(c.end),
    // Times the file never had are not invented on the way out: a plain HAR's body stays one untimed body.
    _chunks: c.chunkTimesUnknown ? undefined : chunks,
  };
}

/** Our `_streamState` spelling (the lab's): network errors are "failed". */
function streamState(end: EndReason): string {
  return end === 'network-error' ? 'failed' : end;
}

function nonNegative(ms: number): number {
  return ms > 0 ? ms : 0;
}

function isoTime(epochMs: number): string {
  return new Date(Math.floor(epochMs)).toISOString();
}

function firstStart(capture: Capture): number | undefined {
  let min: number | undefined;
  for (const c of capture.connections) if (min === undefined || c.startTime < min) min = c.startTime;
  return min;
}

/** HAR's queryString list, decoded where the encoding is valid (kept raw where it is not). */
function queryString(url: string): { name: string; value: string }[] {
  const q = url.indexOf('?');
  if (q === -1) return [];
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash === -1 ? undefined : hash);
  if (query === '') return [];
  return query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    const value = eq === -1 ? '' : pair.slice(eq + 1);
    return { name: decodeQueryPart(name), value: decodeQueryPart(value) };
  });
}

function decodeQueryPart(part: string): string {
  const spaced = part.replace(/\+/g, ' ');
  // decodeURIComponent throws URIError on a malformed %-sequence; HAR then keeps the raw text.
  try {
    return decodeURIComponent(spaced);
  } catch (error) {
    if (error instanceof URIError) return spaced;
    throw error;
  }
}
