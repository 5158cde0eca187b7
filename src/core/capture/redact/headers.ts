// Runs anywhere (pure core): which header values are secrets, and what stands for them. The tap applies the same
// patterns at the source (src/tap/redact.ts, checked against these by their literal types and a test).
import type { HttpHeader } from '../model';
import { redactedTag, REDACTED_TAG } from './hash';

/** A header whose name contains one of these is a secret, whatever its value (except Mcp-Session-Id). */
export const SECRET_HEADER_NAME = 'auth|token|key|secret|session|signature|cookie|password|credential';
/** A `Bearer` or `Basic` credential is a secret in any header; the scheme stays readable. */
export const AUTH_SCHEME_VALUE = '^\\s*(bearer|basic)\\s+(\\S[^]*)$';
/** Kept at the source (the panel groups by it); an alias in exports (capture.ts). */
export const SESSION_HEADER = 'mcp-session-id';
export type SecretHeaderName = typeof SECRET_HEADER_NAME;
export type AuthSchemeValue = typeof AUTH_SCHEME_VALUE;

const SECRET_NAME = new RegExp(SECRET_HEADER_NAME, 'i');
const AUTH_SCHEME = new RegExp(AUTH_SCHEME_VALUE, 'i');

/** A header whose value is hidden whatever it is. */
export function isSecretHeader(name: string): boolean {
  return name.toLowerCase() !== SESSION_HEADER && SECRET_NAME.test(name);
}

/** Told each secret a redaction hid and what stands for it now. */
export type NoteHidden = (secret: string, shown: string) => void;

/** The value as it may be shown: `Bearer ‹redacted:3f2a›`, `‹redacted:9c01›`, or the value itself. */
export function redactHeaderValue(name: string, value: string, note?: NoteHidden): string {
  if (value === '' || REDACTED_TAG.test(value)) return value;
  const scheme = AUTH_SCHEME.exec(value);
  if (scheme) {
    const tag = redactedTag(scheme[2] as string);
    note?.(scheme[2] as string, tag);
    return `${scheme[1] as string} ${tag}`;
  }
  if (!isSecretHeader(name)) return value;
  const tag = redactedTag(value);
  note?.(value, tag);
  return tag;
}

export function redactHeaders(headers: readonly HttpHeader[]): HttpHeader[] {
  return headers.map((h) => {
    const value = redactHeaderValue(h.name, h.value);
    return value === h.value ? h : { name: h.name, value };
  });
}
