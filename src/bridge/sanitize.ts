// Isolated world (pure): what the bridge enforces on a valid delta before keeping it, whatever the page claimed.
import type { ConnectionDelta } from '../protocol/records';
import { redactResponse, redactStart } from '../protocol/redact';

export interface SanitizeOptions {
  revealSecrets: boolean;
  /** The frame's real document URL (a page could claim any). */
  documentUrl: string;
}

export function sanitizeDelta(delta: ConnectionDelta, options: SanitizeOptions): ConnectionDelta {
  if (delta.kind === 'start') {
    const conn = { ...delta.conn, documentUrl: options.documentUrl };
    return { kind: 'start', conn: options.revealSecrets ? conn : redactStart(conn) };
  }
  if (delta.kind === 'response' && !options.revealSecrets) return redactResponse(delta);
  return delta;
}
