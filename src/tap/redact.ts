// Runs anywhere (pure; used by the page tap and the bridge): which header values are secrets, and their masking.
import type { HttpHeader } from '../core/capture/model';

export const REDACTED = '[redacted]';

/** Credentials by name: Authorization, Proxy-Authorization, Cookie, X-Api-Key, tokens, secrets. Never Mcp-Session-Id. */
const SECRET_HEADER = /^(?:proxy-)?authorization$|^(?:set-)?cookie2?$|api-?key|token|secret|password|credential|^x-auth/i;

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name);
}

export function redactHeaders(headers: HttpHeader[]): HttpHeader[] {
  return headers.map((h) => (isSecretHeader(h.name) && h.value !== REDACTED ? { name: h.name, value: REDACTED } : h));
}
