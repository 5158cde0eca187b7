import { describe, expect, it } from 'vitest';
import { parseTranscript } from './transcript';

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

describe('parseTranscript (the rule docs’ examples)', () => {
  it('reads request lines, headers, body, response head and the body verbatim', () => {
    const capture = parseTranscript(
      '> POST /mcp\n> Mcp-Session-Id: s1\n> {"jsonrpc":"2.0","id":1,"method":"ping"}\n< 200 OK\n< Content-Type: text/event-stream\nid: 1\ndata: x\n\nid: 2\ndata: y\n! network-error\n\n> GET http://example.test/mcp\n< 409\n\n',
    );
    const [post, get] = capture.connections;
    expect(post).toMatchObject({
      method: 'POST',
      url: 'http://127.0.0.1:3000/mcp',
      requestHeaders: [{ name: 'Mcp-Session-Id', value: 's1' }],
      requestBody: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      status: 200,
      statusText: 'OK',
      responseHeaders: [{ name: 'Content-Type', value: 'text/event-stream' }],
      end: 'network-error',
    });
    expect(text(post?.chunks[0]?.bytes)).toBe('id: 1\ndata: x\n\nid: 2\ndata: y\n');
    expect(get).toMatchObject({
      method: 'GET',
      url: 'http://example.test/mcp',
      status: 409,
      chunks: [],
      end: 'complete',
    });
    expect((get?.startTime ?? 0) > (post?.endTime ?? Infinity)).toBe(true);
  });

  it('keeps a stream open, and names the line of a mistake', () => {
    expect(parseTranscript('> GET /mcp\n< 200\nid: 1\n! open\n').connections[0]).not.toHaveProperty('endTime');
    expect(() => parseTranscript('data: x\n')).toThrow('transcript line 1: outside an exchange: data: x');
    expect(() => parseTranscript('> GET /mcp\n< 200\n! closed\n')).toThrow('line 3: unknown end');
  });

  it('lets time pass between exchanges with a ~ line, which also ends the body before it', () => {
    const [first, second] = parseTranscript(
      '> GET /mcp\n< 200\nid: 1\ndata: x\n\n~ +2000 ms\n> GET /mcp\n< 200\n',
    ).connections;
    expect(text(first?.chunks[0]?.bytes)).toBe('id: 1\ndata: x\n\n');
    expect((second?.startTime ?? 0) - (first?.endTime ?? 0)).toBeGreaterThanOrEqual(2000);
  });
});
