import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze';
import { parseTranscript } from '../transcript';

const RULE = 'idle-timeout-cut';

const stream = (silenceMs: number, end = 'network-error', body = '') => `> GET /mcp
> Mcp-Session-Id: s1
> MCP-Protocol-Version: 2025-11-25
< 200
< Content-Type: text/event-stream
${body}. +${silenceMs} ms
! ${end}
`;

const findings = (text: string, idleCutMs?: number) =>
  analyze(parseTranscript(text), undefined, idleCutMs === undefined ? {} : { silence: { idleCutMs } }).findings.filter(
    (f) => f.rule === RULE,
  );

describe(RULE, () => {
  it('reports streams cut after the same silence, with the silences measured', () => {
    const found = findings([3000, 3004, 3011].map((ms) => stream(ms)).join('\n'));
    expect(found).toMatchObject([{ severity: 'warning', connectionId: 'c3' }]);
    expect(found[0]?.message).toMatch(
      /^3 event streams ended after the same silence, about 3\.0 s without a byte \(300\d ms \/ 30\d\d ms \/ 30\d\d ms: c1, c2, c3\)/,
    );
    expect(found[0]?.message).toContain('keep-alive comments more often than every 3.0 s');
  });

  it('stays quiet for one cut, for different silences, and below the idle threshold', () => {
    expect(findings(stream(3000))).toEqual([]);
    expect(findings([stream(3000), stream(9000)].join('\n'))).toEqual([]);
    expect(findings([stream(500), stream(500)].join('\n'))).toEqual([]);
    expect(findings([stream(500), stream(500)].join('\n'), 400)).toHaveLength(1);
  });

  it('measures from the last byte: a keep-alive resets the silence', () => {
    const kept = (ms: number) => stream(ms, 'network-error', `: keep-alive\n\n. +2500 ms\n: keep-alive\n\n`);
    // Each cut comes 3.0 s after its last keep-alive, however long the stream was open.
    expect(findings([kept(3000), kept(3000)].join('\n'))[0]?.message).toContain('about 3.0 s');
  });

  it('does not count a client abort, nor a close that set retry: (the server ending on purpose)', () => {
    expect(findings([stream(3000, 'aborted'), stream(3000, 'aborted')].join('\n'))).toEqual([]);
    const closed = stream(3000, 'complete', 'id: 1\nretry: 1000\ndata:\n\n');
    expect(findings([closed, closed].join('\n'))).toEqual([]);
  });
});
