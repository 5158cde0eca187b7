import { describe, expect, it } from 'vitest';
import { noMcpLine, otherStreamLabel, otherStreamsCount, shortUrl } from './otherStreams';

describe('naming the streams that are not MCP', () => {
  it('labels each known kind, and a stream of no known kind plainly', () => {
    expect(otherStreamLabel('openai-chat')).toBe('OpenAI-style completions');
    expect(otherStreamLabel('anthropic-messages')).toBe('Anthropic-style messages');
    expect(otherStreamLabel('mcp-inspector')).toBe('MCP Inspector backend');
    expect(otherStreamLabel(undefined)).toBe('SSE stream');
  });

  it('shortens a URL to host and path', () => {
    expect(shortUrl('http://127.0.0.1:5173/api/openai/v1/chat/completions')).toBe(
      '127.0.0.1:5173/api/openai/v1/chat/completions',
    );
    expect(shortUrl('http://localhost:6274/api/mcp/events?sessionId=ui-7f3a#x')).toBe('localhost:6274/api/mcp/events');
    expect(shortUrl('/relative/path')).toBe('/relative/path');
  });

  it('says in the empty state that other streams are listed below, singular or plural', () => {
    expect(noMcpLine(0)).toBeUndefined();
    expect(noMcpLine(1)).toBe('No MCP traffic on this page yet. 1 other stream (not MCP) is listed below.');
    expect(noMcpLine(2)).toBe('No MCP traffic on this page yet. 2 other streams (not MCP) are listed below.');
    expect(otherStreamsCount(3)).toBe('3 other streams');
  });
});
