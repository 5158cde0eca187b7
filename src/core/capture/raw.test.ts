import { describe, expect, it } from 'vitest';
import { importRawStream } from './raw';

const enc = new TextEncoder();
const stream = 'id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\nid: 2\ndata: {"jsonr';

describe('raw event-stream import', () => {
  it('reads a body saved with curl -N as one complete GET connection of one chunk', () => {
    const capture = importRawStream(enc.encode(stream), 'resume.sse');
    expect(capture.connections).toHaveLength(1);
    const [c] = capture.connections;
    expect(c).toMatchObject({
      method: 'GET',
      url: 'file://resume.sse',
      source: 'raw',
      end: 'complete',
      status: 200,
      requestHeaders: [],
    });
    expect(c!.responseHeaders).toEqual([{ name: 'content-type', value: 'text/event-stream' }]);
    expect(c!.chunks).toHaveLength(1);
    expect(new TextDecoder().decode(c!.chunks[0]!.bytes)).toBe(stream);
  });

  it('parses a head saved with curl -i (CRLF) and keeps only the body as the chunk', () => {
    const head =
      'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nMcp-Session-Id: abc-123\r\nContent-Location: http://127.0.0.1:3000/mcp\r\n\r\n';
    const [c] = importRawStream(enc.encode(head + stream), 'out.txt').connections;
    expect(c!.status).toBe(200);
    expect(c!.statusText).toBe('OK');
    expect(c!.url).toBe('http://127.0.0.1:3000/mcp');
    expect(c!.responseHeaders).toEqual([
      { name: 'Content-Type', value: 'text/event-stream' },
      { name: 'Mcp-Session-Id', value: 'abc-123' },
      { name: 'Content-Location', value: 'http://127.0.0.1:3000/mcp' },
    ]);
    expect(c!.requestHeaders).toEqual([]); // curl -i saves no request head: no Last-Event-ID known
    expect(new TextDecoder().decode(c!.chunks[0]!.bytes)).toBe(stream);
  });

  it('takes the last of several heads (HTTP/2, a 100 Continue first, LF line ends)', () => {
    const heads = 'HTTP/1.1 100 Continue\n\nHTTP/2 409\ncontent-type: application/json\nretry-after: 5\n\n';
    const [c] = importRawStream(enc.encode(heads + '{"error":"stale"}'), 'rejected.txt').connections;
    expect(c!.status).toBe(409);
    expect(c!.statusText).toBe('');
    expect(c!.url).toBe('file://rejected.txt');
    expect(c!.responseHeaders).toEqual([
      { name: 'content-type', value: 'application/json' },
      { name: 'retry-after', value: '5' },
    ]);
    expect(new TextDecoder().decode(c!.chunks[0]!.bytes)).toBe('{"error":"stale"}');
  });

  it('a head with no body gives a connection without chunks', () => {
    const [c] = importRawStream(enc.encode('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'), 'gone').connections;
    expect(c!.status).toBe(404);
    expect(c!.statusText).toBe('Not Found');
    expect(c!.chunks).toEqual([]);
  });
});
