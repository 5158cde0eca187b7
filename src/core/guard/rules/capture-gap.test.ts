import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze';
import { parseTranscript } from '../transcript';
import { eventStartBefore } from '../capture-gaps';
import { findingsFor } from '../testing';

const RULE = 'capture-gap';

const HEAD = `> GET /mcp
> Mcp-Session-Id: s1
> MCP-Protocol-Version: 2025-11-25
< 200
< Content-Type: text/event-stream
< Mcp-Session-Id: s1
`;
const EVENT = (n: number) =>
  `id: ${n}\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${n}}}\n\n`;

describe(RULE, () => {
  it('reports each gap at its recorded offset, with its size, page offset and cause', () => {
    const capture = parseTranscript(`${HEAD}${EVENT(1)}? gap 500 bytes\n${EVENT(9)}`);
    const findings = findingsFor(capture, RULE);
    expect(findings).toHaveLength(1);
    const recorded = new TextEncoder().encode(EVENT(1)).byteLength;
    expect(findings[0]).toMatchObject({ severity: 'info', connectionId: 'c1', byteOffset: recorded });
    expect(findings[0]?.message).toBe(
      `c1: 500 bytes at body offset ${recorded} not recorded: evicted from the tab's bounded buffer before a panel attached; findings from the event it cut into onwards are left out.`,
    );
  });

  it('joins no event across a gap: the one it cut into is not in the events, the next whole one is', () => {
    // The recorder lost the end of event 2 and the start of event 8: no event "2 + the rest of 8" is made.
    const cut = EVENT(8).slice(20);
    const capture = parseTranscript(`${HEAD}${EVENT(1)}${EVENT(2).slice(0, 30)}\n? gap 900 bytes\n${cut}${EVENT(9)}`);
    const analysis = analyze(capture);
    expect(analysis.events.length).toBe(2);
    expect([...analysis.events].map((e) => [e.lastEventId, e.messages[0]?.kind])).toEqual([
      ['1', 'notification'],
      ['9', 'notification'],
    ]);
    expect(analysis.findings.map((f) => f.rule)).toEqual([RULE]);
  });

  it('reports nothing on a capture without gaps', () => {
    expect(findingsFor(parseTranscript(`${HEAD}${EVENT(1)}${EVENT(2)}`), RULE)).toEqual([]);
  });

  it('keeps a torn event across a gap from being reported as a torn event and reconnect', () => {
    // The recorder lost the end of event 2 and the stream's last bytes; the client then resumed after event 1.
    const torn = `${HEAD}${EVENT(1)}id: 2\ndata: {"jsonrpc":"2.0","method":"notific\n? gap 200 bytes\n! network-error
> GET /mcp
> Mcp-Session-Id: s1
> MCP-Protocol-Version: 2025-11-25
> Last-Event-ID: 1
< 200
< Content-Type: text/event-stream
< Mcp-Session-Id: s1
${EVENT(2)}`;
    const rules = analyze(parseTranscript(torn)).findings.map((f) => f.rule);
    expect(rules).toContain(RULE);
    expect(rules).not.toContain('torn-event-reconnect');
    expect(rules).not.toContain('incomplete-json');
    // The same capture without the gap is a torn event indeed: the rule is kept from judging across it only.
    const real = analyze(parseTranscript(torn.replace('? gap 200 bytes\n', ''))).findings.map((f) => f.rule);
    expect(real).toContain('torn-event-reconnect');
  });

  it('finds where the event a gap cut into began, for LF, CR and CRLF line ends', () => {
    const enc = (s: string) => [{ t: 0, bytes: new TextEncoder().encode(s) }];
    expect(eventStartBefore(enc('data: a\n\ndata: b'), 14)).toBe(9);
    expect(eventStartBefore(enc('data: a\r\n\r\ndata: b'), 16)).toBe(11);
    expect(eventStartBefore(enc('data: a\r\rdata: b'), 14)).toBe(9);
    expect(eventStartBefore(enc('data: a'), 5)).toBe(0);
    // Across chunks.
    expect(eventStartBefore([...enc('data: a\n'), ...enc('\ndata: b')], 14)).toBe(9);
  });
});
