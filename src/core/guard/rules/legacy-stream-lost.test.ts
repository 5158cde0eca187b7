import { describe, expect, it } from 'vitest';
import { findingsFor } from '../testing';
import { parseTranscript } from '../transcript';

const RULE = 'legacy-stream-lost';
const PROGRESS =
  'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2,"progress":1}}\n\n';
const ANSWER = 'event: message\ndata: {"jsonrpc":"2.0","id":2,"result":{"content":[]}}\n\n';

/** A 2024-11-05 session: its /sse stream (`body`, ending as `end` says), then tools/call 2 and `after` POSTed. */
function legacy(body: string, end: string | undefined, after = ''): string {
  return [
    '> GET /sse',
    '< 200',
    '< Content-Type: text/event-stream',
    // Lines are joined with LF: the body's own last LF would make a blank line.
    `event: endpoint\ndata: /messages?sessionId=abc\n\n${body}`.replace(/\n$/, ''),
    ...(end ? [`! ${end}`] : []),
    '> POST /messages?sessionId=abc',
    '> {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"report","_meta":{"progressToken":2}}}',
    '< 202',
    'Accepted',
    after,
  ].join('\n');
}

const findings = (text: string) => findingsFor(parseTranscript(text), RULE);

describe(RULE, () => {
  it('reports the requests left unanswered when the /sse stream broke, on that stream', () => {
    const found = findings(legacy(PROGRESS, 'network-error'));
    expect(found).toMatchObject([
      { severity: 'error', connectionId: 'c1', sessionKey: expect.stringMatching(/legacy/) },
    ]);
    expect(found[0]?.message).toBe(
      "request 2 (tools/call) was never answered: the session's /sse stream c1 broke (network error), and the 2024-11-05 HTTP+SSE transport cannot resume it.",
    );
  });

  it('says when the stream was torn inside an event, or closed by the server', () => {
    expect(
      findings(legacy(`${PROGRESS}event: message\ndata: {"jsonrpc":"2.0","id":2,"res`, 'network-error'))[0]?.message,
    ).toContain('broke (network error) in the middle of an event');
    expect(findings(legacy(PROGRESS, undefined))[0]?.message).toContain('was closed by the server');
  });

  it('stays quiet when the answer arrived before the end, the client closed the stream, or it is still open', () => {
    expect(findings(legacy(PROGRESS + ANSWER, 'network-error'))).toEqual([]);
    expect(findings(legacy(PROGRESS, 'aborted'))).toEqual([]);
    expect(findings(legacy(PROGRESS, 'open'))).toEqual([]);
  });

  it('still reports a request the client cancelled after the stream ended: its timeout on the loss', () => {
    const cancel = [
      '> POST /messages?sessionId=abc',
      '> {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"timed out"}}',
      '< 202',
      'Accepted',
    ].join('\n');
    expect(findings(legacy(PROGRESS, 'network-error', cancel))).toHaveLength(1);
  });

  it('stays quiet on the 2025 eras: a broken POST stream there is the resumable rules’ to judge', () => {
    const streamable = [
      '> POST /mcp',
      '> Mcp-Session-Id: s1',
      '> {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"report"}}',
      '< 200',
      '< Content-Type: text/event-stream',
      'id: 1',
      'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2,"progress":1}}',
      '',
      '! network-error',
    ].join('\n');
    expect(findings(streamable)).toEqual([]);
    expect(findingsFor(parseTranscript(streamable), 'unanswered-after-disconnect')).toHaveLength(1);
  });
});
