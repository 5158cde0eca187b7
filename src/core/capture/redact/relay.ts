// Runs anywhere (pure core): the secrets in a relay's reports. The MCP Inspector's backend reports each fetch it makes
// to the MCP server on its UI's `/api/mcp/events` stream (docs/relayed-traffic.md): the request and response headers
// as JSON objects, the URL, and the bodies as JSON strings (one level of escaping down). Its own tracker hides a few
// header names; this hides what the product hides anywhere else: every credential-named header, Bearer and Basic
// values, credential query parameters, credential fields inside the bodies, and the Mcp-Session-Id, each under a
// mask of the same byte length (body.ts), so the stream's bytes, offsets and JSON stay as they were and the decoded
// exchanges still group by session.
import { TextDecoder } from '../../web/globals';
import { encodeUtf8 } from '../text';
import { maskJsonSecrets, maskOf, type MaskedSpan } from './body';
import { REDACTED_TAG } from './hash';
import { AUTH_SCHEME_VALUE, isSecretHeader, SESSION_HEADER } from './headers';
import { SECRET_PARAM_NAME } from './urls';

/** The Inspector backend's stream to its web UI. */
export const INSPECTOR_EVENTS_PATH = '/api/mcp/events';
/** Shorter values are left alone: masking every occurrence of them would hit unrelated text. */
const MIN_SECRET = 4;
const AUTH_SCHEME = new RegExp(AUTH_SCHEME_VALUE, 'i');
const SECRET_PARAM = new RegExp(SECRET_PARAM_NAME, 'i');
const DECODER = new TextDecoder();
const BACKSLASH = 0x5c;
/** A mask body.ts writes: `***` then hex digits. */
const MASK = /^\*\*\*[0-9a-f]*$/;

/** A record of the Inspector's events stream, whose `data:` lines are the relay's reports. */
export function isInspectorEvents(url: string): boolean {
  const end = url.search(/[?#]/);
  return (end < 0 ? url : url.slice(0, end)).endsWith(INSPECTOR_EVENTS_PATH);
}

const asObject = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** A string value as JSON writes it between its quotes: how it appears in the line. */
const escaped = (value: string): string => JSON.stringify(value).slice(1, -1);

function headerSecrets(headers: unknown, out: Set<string>): void {
  for (const [name, value] of Object.entries(asObject(headers) ?? {})) {
    if (typeof value !== 'string') continue;
    const scheme = AUTH_SCHEME.exec(value);
    if (name.toLowerCase() === SESSION_HEADER || (isSecretHeader(name) && !scheme)) out.add(value);
    else if (scheme) out.add(scheme[2] as string);
  }
}

function urlSecrets(url: unknown, out: Set<string>): void {
  if (typeof url !== 'string') return;
  const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]+)@/i.exec(url)?.[1];
  if (userinfo !== undefined) out.add(userinfo);
  const query = url.split('#')[0]?.split('?')[1] ?? '';
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && SECRET_PARAM.test(pair.slice(0, eq))) out.add(pair.slice(eq + 1));
  }
}

/** Credential fields of a body the relay carries as a string (JSON, or the text of an SSE response). */
function bodySecrets(body: unknown, out: Set<string>): void {
  if (typeof body !== 'string') return;
  const bytes = encodeUtf8(body);
  const spans: MaskedSpan[] = [];
  maskJsonSecrets(bytes, spans);
  for (const { from, to } of spans) out.add(DECODER.decode(bytes.subarray(from, to)));
}

/** What in one report is a secret, as the values themselves. */
function secretsOf(report: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  headerSecrets(report.requestHeaders, out);
  headerSecrets(report.responseHeaders, out);
  urlSecrets(report.url, out);
  bodySecrets(report.requestBody, out);
  bodySecrets(report.responseBody, out);
  return out;
}

/** Masks every occurrence of `needle` in `line` that does not start inside an escape sequence; notes each in `spans`. */
function maskAll(line: Uint8Array, needle: Uint8Array, spans: MaskedSpan[] | undefined): void {
  const mask = maskOf(needle);
  for (let at = indexOf(line, needle, 0); at >= 0; at = indexOf(line, needle, at + needle.length)) {
    let slashes = 0;
    while (at - slashes - 1 >= 0 && line[at - slashes - 1] === BACKSLASH) slashes++;
    if (slashes % 2 === 1) continue;
    line.set(mask, at);
    spans?.push({ from: at, to: at + needle.length });
  }
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0] as number;
  for (
    let i = haystack.indexOf(first, from);
    i >= 0 && i + needle.length <= haystack.length;
    i = haystack.indexOf(first, i + 1)
  ) {
    let k = 1;
    while (k < needle.length && haystack[i + k] === needle[k]) k++;
    if (k === needle.length) return i;
  }
  return -1;
}

/**
 * A `data:` line of the relay's stream with its report's secrets masked in place (the same bytes when it has none):
 * each secret wherever it shows in the line, its bytes replaced one for one.
 * @param spans collects where masks were written (positions in the returned array).
 */
export function maskRelayLine(line: Uint8Array, spans?: MaskedSpan[]): Uint8Array {
  const text = DECODER.decode(line);
  const json = /^data: ?/.exec(text);
  if (!json) return line;
  let report: Record<string, unknown> | undefined;
  try {
    report = asObject(asObject(JSON.parse(text.slice(json[0].length)))?.data);
  } catch {
    // Not a whole report (a torn last line, or not the relay's): maskJsonSecrets has done what can be done.
    return line;
  }
  if (!report) return line;
  // What a redaction already wrote stays (redacting twice changes nothing): a mask, a tag, the tracker's own mark.
  const secrets = [...secretsOf(report)].filter(
    (s) => s.length >= MIN_SECRET && !MASK.test(s) && !REDACTED_TAG.test(s),
  );
  if (secrets.length === 0) return line;
  const out = line.slice();
  // Longest first: a secret that holds another is masked whole.
  for (const secret of secrets.sort((a, b) => b.length - a.length)) maskAll(out, encodeUtf8(escaped(secret)), spans);
  return out;
}

/** {@link maskRelayLine} over each line of a part of the stream that starts and ends at line boundaries. */
export function maskRelaySecrets(bytes: Uint8Array, spans?: MaskedSpan[]): Uint8Array {
  let out: Uint8Array | undefined;
  let start = 0;
  while (start < bytes.length) {
    const lf = bytes.indexOf(0x0a, start);
    const end = lf < 0 ? bytes.length : lf;
    const line = bytes.subarray(start, end);
    const lineSpans: MaskedSpan[] = [];
    const masked = maskRelayLine(line, spans ? lineSpans : undefined);
    if (masked !== line) {
      out ??= bytes.slice();
      out.set(masked, start);
      for (const span of lineSpans) spans?.push({ from: span.from + start, to: span.to + start });
    }
    start = end + 1;
  }
  return out ?? bytes;
}
