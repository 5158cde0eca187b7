import { describe, expect, it } from 'vitest';
import { mcpEntry, requestKey, UnrecordedTally } from './unrecorded';

const har = (method: string, url: string, more: { headers?: unknown[]; body?: string; mime?: string } = {}) => ({
  request: { method, url, headers: more.headers ?? [], ...(more.body ? { postData: { text: more.body } } : {}) },
  response: { content: { mimeType: more.mime ?? 'application/json' } },
});

describe('mcpEntry', () => {
  it('takes requests with an MCP header, a JSON-RPC body or an event-stream answer, and nothing else', () => {
    const url = 'http://127.0.0.1/mcp';
    expect(mcpEntry(har('GET', url, { headers: [{ name: 'Mcp-Session-Id', value: 'x' }] }))).toEqual({
      method: 'GET',
      url,
    });
    expect(mcpEntry(har('POST', url, { body: '{"jsonrpc": "2.0","id":1}' }))).not.toBeNull();
    expect(mcpEntry(har('GET', url, { mime: 'text/event-stream; charset=utf-8' }))).not.toBeNull();
    expect(mcpEntry(har('GET', 'http://127.0.0.1/app.js', { mime: 'text/javascript' }))).toBeNull();
    expect(mcpEntry({ request: { method: 1 } })).toBeNull();
    expect(mcpEntry(null)).toBeNull();
  });
});

describe('UnrecordedTally', () => {
  it('counts what the log saw beyond what the tap recorded, per method, origin and path', () => {
    const t = new UnrecordedTally();
    t.recordedStart('a', 'POST', 'http://127.0.0.1/mcp?token=‹redacted›');
    t.recordedStart('a', 'POST', 'http://127.0.0.1/mcp');
    t.networkEntry({ method: 'POST', url: 'http://127.0.0.1/mcp?token=s3cret' });
    expect(t.count).toBe(0);
    // A worker's two requests: the log has them, the tap does not.
    t.networkEntry({ method: 'POST', url: 'http://127.0.0.1/mcp' });
    t.networkEntry({ method: 'GET', url: 'http://127.0.0.1/mcp' });
    expect(t.count).toBe(2);
    t.reset();
    expect(t.count).toBe(0);
  });

  it('keys URLs it cannot parse as they are', () => {
    expect(requestKey('get', 'not a url')).toBe('GET not a url');
  });
});
