// Isolated world (pure): what the bridge enforces on a valid delta before keeping it, whatever the page claimed.
import type { ConnectionDelta } from '../protocol/records';
import { redactHeaders } from '../protocol/redact';

export interface SanitizeOptions {
  revealSecrets: boolean;
  /** The frame's real document URL (a page could claim any). */
  documentUrl: string;
}

export function sanitizeDelta(delta: ConnectionDelta, options: SanitizeOptions): ConnectionDelta {
  if (delta.kind === 'start') {
    const conn = { ...delta.conn, documentUrl: options.documentUrl };
    if (!options.revealSecrets) conn.requestHeaders = redactHeaders(conn.requestHeaders);
    return { kind: 'start', conn };
  }
  if (delta.kind === 'response' && !options.revealSecrets) {
    return { ...delta, responseHeaders: redactHeaders(delta.responseHeaders) };
  }
  return delta;
}
