// Page MAIN world (pure): the redaction of heads and URLs of src/core/capture/redact (headers.ts, url.ts, hash.ts),
// applied at the source so that credentials never travel in messages other page scripts could watch
// (docs/redaction.md). The tap imports only types: the literal types below make the compiler reject a pattern
// that drifts from the core's, and redact.test.ts checks that both give the same tags. Built-ins are captured while
// the tap loads, before any page script, and called with an explicit receiver: a page that later replaces
// String.prototype.slice or RegExp.prototype.exec changes nothing here. Bodies are masked at export, not here:
// that would be per-byte work on the page's thread.
import type { HttpHeader, WireConnectionStart } from '../protocol/records';
import type { AuthSchemeValue, SecretHeaderName, SecretParamName } from '../protocol/redact';
import { apply } from './intrinsics';

const HEADER_NAME: SecretHeaderName = 'auth|token|key|secret|session|signature|cookie|password|credential';
const AUTH_SCHEME_VALUE: AuthSchemeValue = '^\\s*(bearer|basic)\\s+(\\S[^]*)$';
const PARAM_NAME: SecretParamName =
  '^(?:access_token|token|api[_-]?key|key|code|password|passwd|secret|client_secret|auth|signature|sig|.*_token|.*[_-]signature)$';
const SECRET_HEADER = new RegExp(HEADER_NAME, 'i');
const AUTH_SCHEME = new RegExp(AUTH_SCHEME_VALUE, 'i');
const SECRET_PARAM = new RegExp(PARAM_NAME, 'i');
const TAGGED = /^(?:(?:bearer|basic) )?‹redacted:[0-9a-f]{4}›$|^\[redacted\]$/i;
const SESSION_HEADER = 'mcp-session-id';

const exec = RegExp.prototype.exec;
const charCodeAt = String.prototype.charCodeAt;
const slice = String.prototype.slice;
const indexOf = String.prototype.indexOf;
const lastIndexOf = String.prototype.lastIndexOf;
const toLowerCase = String.prototype.toLowerCase;
const decode = decodeURIComponent;
const HEX = '0123456789abcdef';

const match = (re: RegExp, text: string): RegExpExecArray | null => apply(exec, re, [text]);
const cut = (text: string, from: number, to?: number): string => apply(slice, text, [from, to]);
const find = (text: string, part: string, from = 0): number => apply(indexOf, text, [part, from]);

/** hash.ts's shortHash: FNV-1a over UTF-16 units, folded to 16 bits, as four hex digits. */
function tag(secret: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < secret.length; i++) {
    const h = (hash ^ apply(charCodeAt, secret, [i])) >>> 0;
    hash = (h + (h << 1) + (h << 4) + (h << 7) + (h << 8) + (h << 24)) >>> 0;
  }
  const short = (hash ^ (hash >>> 16)) & 0xffff;
  return `‹redacted:${HEX[(short >>> 12) & 15]}${HEX[(short >>> 8) & 15]}${HEX[(short >>> 4) & 15]}${HEX[short & 15]}›`;
}

function headerValue(name: string, value: string): string {
  if (value === '' || match(TAGGED, value)) return value;
  const scheme = match(AUTH_SCHEME, value);
  if (scheme) return `${scheme[1] as string} ${tag(scheme[2] as string)}`;
  const secret = apply(toLowerCase, name, []) !== SESSION_HEADER && match(SECRET_HEADER, name) !== null;
  return secret ? tag(value) : value;
}

export function redactSecretHeaders(headers: HttpHeader[]): HttpHeader[] {
  const out: HttpHeader[] = [];
  for (let i = 0; i < headers.length; i++) {
    const h = headers[i] as HttpHeader;
    const value = headerValue(h.name, h.value);
    out[i] = value === h.value ? h : { name: h.name, value };
  }
  return out;
}

function paramName(name: string): string {
  try {
    let spaced = '';
    for (let i = 0; i < name.length; i++) spaced += name[i] === '+' ? ' ' : name[i];
    return decode(spaced);
  } catch {
    // Not percent-encoding after all: the name as written.
    return name;
  }
}

function params(text: string): string {
  let out = '';
  let start = 0;
  while (start <= text.length) {
    const amp = find(text, '&', start);
    const end = amp < 0 ? text.length : amp;
    const pair = cut(text, start, end);
    const eq = find(pair, '=');
    const value = eq > 0 ? cut(pair, eq + 1) : '';
    const secret = value !== '' && !match(TAGGED, value) && match(SECRET_PARAM, paramName(cut(pair, 0, eq))) !== null;
    out += (start > 0 ? '&' : '') + (secret ? cut(pair, 0, eq + 1) + tag(value) : pair);
    start = end + 1;
  }
  return out;
}

function userinfo(head: string): string {
  const scheme = find(head, '://');
  if (scheme < 0) return head;
  const start = scheme + 3;
  const slash = find(head, '/', start);
  const end = slash < 0 ? head.length : slash;
  const at = apply(lastIndexOf, head, ['@', end - 1]);
  if (at < start) return head;
  const info = cut(head, start, at);
  if (info === '' || match(TAGGED, info)) return head;
  return cut(head, 0, start) + tag(info) + cut(head, at);
}

/** url.ts's redactUrl: userinfo, then query and fragment parameters named like credentials. */
export function redactSecretUrl(url: string): string {
  const hash = find(url, '#');
  const beforeHash = hash < 0 ? url : cut(url, 0, hash);
  const q = find(beforeHash, '?');
  let out = userinfo(q < 0 ? beforeHash : cut(beforeHash, 0, q));
  if (q >= 0) out += `?${params(cut(beforeHash, q + 1))}`;
  if (hash >= 0) {
    const fragment = cut(url, hash + 1);
    const fq = find(fragment, '?');
    out += `#${fq < 0 ? params(fragment) : cut(fragment, 0, fq + 1) + params(cut(fragment, fq + 1))}`;
  }
  return out;
}

/** The head of a connection as the tap sends it unless the user opted in. */
export function redactSecretStart(conn: WireConnectionStart): WireConnectionStart {
  const out = { ...conn, url: redactSecretUrl(conn.url), requestHeaders: redactSecretHeaders(conn.requestHeaders) };
  if (conn.documentUrl !== undefined) out.documentUrl = redactSecretUrl(conn.documentUrl);
  return out;
}
