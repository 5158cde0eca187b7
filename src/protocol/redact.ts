// Runs anywhere (pure; the bridge uses it): what is hidden in a connection's head before it is kept, whatever the
// page's tap did (docs/redaction.md). The patterns are the core's; the tap re-states them at the source
// (src/tap/redact.ts), checked against these literal types and by a test.
import { maskJsonSecretsInText } from '../core/capture/redact/body';
import { redactHeaders } from '../core/capture/redact/headers';
import { redactUrl } from '../core/capture/redact/urls';
import type { ConnectionDelta, WireConnectionStart } from './records';

export type { AuthSchemeValue, SecretHeaderName } from '../core/capture/redact/headers';
export type { SecretParamName } from '../core/capture/redact/urls';

/** Credential headers tagged, URL credentials tagged, credential fields of the request body masked. */
export function redactStart(conn: WireConnectionStart): WireConnectionStart {
  const out = { ...conn, url: redactUrl(conn.url), requestHeaders: redactHeaders(conn.requestHeaders) };
  if (conn.documentUrl !== undefined) out.documentUrl = redactUrl(conn.documentUrl);
  if (conn.requestBody !== undefined) out.requestBody = maskJsonSecretsInText(conn.requestBody);
  return out;
}

export function redactResponse(
  delta: Extract<ConnectionDelta, { kind: 'response' }>,
): Extract<ConnectionDelta, { kind: 'response' }> {
  return { ...delta, responseHeaders: redactHeaders(delta.responseHeaders) };
}

export { redactUrl };
