// Runs anywhere (pure; the bridge and exports use it): which header values are secrets, and their masking.
// The tap applies the same pattern at the source (src/tap/redact.ts, checked against this one by its literal type).
import type { HttpHeader } from './records';

export const REDACTED = '[redacted]';

/** Credentials by name: Authorization, Proxy-Authorization, Cookie, X-Api-Key, tokens, secrets. Never Mcp-Session-Id. */
export const SECRET_HEADER_PATTERN =
  '^(?:proxy-)?authorization$|^(?:set-)?cookie2?$|api-?key|token|secret|password|credential|^x-auth';
export type SecretHeaderPattern = typeof SECRET_HEADER_PATTERN;
export type Redacted = typeof REDACTED;

const SECRET_HEADER = new RegExp(SECRET_HEADER_PATTERN, 'i');

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name);
}

export function redactHeaders(headers: HttpHeader[]): HttpHeader[] {
  return headers.map((h) => (isSecretHeader(h.name) && h.value !== REDACTED ? { name: h.name, value: REDACTED } : h));
}
