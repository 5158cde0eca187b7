import { describe, expect, it } from 'vitest';
import type { ConnectionDelta } from '../protocol/records';
import { redactedTag } from '../core/capture/redact/hash';
import { sanitizeDelta } from './sanitize';

const start: ConnectionDelta = {
  kind: 'start',
  conn: {
    id: 'a',
    source: 'fetch',
    method: 'GET',
    url: 'http://127.0.0.1/mcp',
    requestHeaders: [
      { name: 'Authorization', value: 'Bearer secret' },
      { name: 'Cookie', value: 'sid=1' },
      { name: 'X-Api-Key', value: 'k' },
      { name: 'Mcp-Session-Id', value: 's1' },
      { name: 'Last-Event-ID', value: '5' },
    ],
    startTime: 1,
    documentUrl: 'https://claimed.example/',
  },
};

describe('sanitizeDelta', () => {
  it('redacts credentials even when a page turned the tap opt-in on, and keeps MCP headers', () => {
    const out = sanitizeDelta(start, { revealSecrets: false, documentUrl: 'http://127.0.0.1/' });
    expect(out.kind === 'start' && out.conn.requestHeaders).toEqual([
      { name: 'Authorization', value: `Bearer ${redactedTag('secret')}` },
      { name: 'Cookie', value: redactedTag('sid=1') },
      { name: 'X-Api-Key', value: redactedTag('k') },
      { name: 'Mcp-Session-Id', value: 's1' },
      { name: 'Last-Event-ID', value: '5' },
    ]);
  });

  it('keeps credentials when the user opted in, and always uses the real document URL', () => {
    const out = sanitizeDelta(start, { revealSecrets: true, documentUrl: 'http://127.0.0.1/' });
    expect(out.kind === 'start' && out.conn.requestHeaders[0]).toEqual({
      name: 'Authorization',
      value: 'Bearer secret',
    });
    expect(out.kind === 'start' && out.conn.documentUrl).toBe('http://127.0.0.1/');
  });
});
