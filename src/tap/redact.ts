// Page MAIN world (pure): the header masking of src/protocol/redact.ts, applied at the source so that secrets never
// travel in DOM events other page scripts could watch. The tap imports only types: the literal types below make the
// compiler reject a pattern or mask that drifts from the protocol's.
import type { HttpHeader } from '../protocol/records';
import type { Redacted, SecretHeaderPattern } from '../protocol/redact';

export const REDACTED: Redacted = '[redacted]';
const PATTERN: SecretHeaderPattern =
  '^(?:proxy-)?authorization$|^(?:set-)?cookie2?$|api-?key|token|secret|password|credential|^x-auth';
const SECRET_HEADER = new RegExp(PATTERN, 'i');

export function redactSecretHeaders(headers: HttpHeader[]): HttpHeader[] {
  return headers.map((h) =>
    SECRET_HEADER.test(h.name) && h.value !== REDACTED ? { name: h.name, value: REDACTED } : h,
  );
}
