import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze';
import { importHar } from '../../capture/har';
import { exportHar } from '../../capture/har-export';
import { parseTranscript } from '../transcript';

const RULE = 'buffered-stream';

const progress = (n: number) =>
  `data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":${n}}}\n`;
const answer = 'data: {"jsonrpc":"2.0","id":7,"result":{"content":[]}}\n';

/** A tool call's stream: `head` lines of the response head, then `body` (with `. +N ms` lines for time passing). */
const call = (body: string, head = '') => `> POST /mcp
> Mcp-Session-Id: s1
> MCP-Protocol-Version: 2025-11-25
> {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"report"}}
< 200
< Content-Type: text/event-stream
${head}${body}`;

const findings = (text: string, bufferedWaitMs?: number) =>
  analyze(
    parseTranscript(text),
    undefined,
    bufferedWaitMs === undefined ? {} : { silence: { bufferedWaitMs } },
  ).findings.filter((f) => f.rule === RULE);

describe(RULE, () => {
  it('reports progress and the answer arriving together after a long wait, naming the compression', () => {
    const found = findings(
      call(
        `. +2500 ms\nid: 1\n${progress(1)}\nid: 2\n${progress(2)}\nid: 3\n${answer}\n`,
        '< Content-Encoding: gzip\n',
      ),
    );
    expect(found).toMatchObject([{ severity: 'warning', connectionId: 'c1' }]);
    expect(found[0]?.message).toMatch(
      /^c1's 2 progress notifications and its answer arrived together, 2\.5 s after the request/,
    );
    expect(found[0]?.message).toContain('gzip-encoded');
  });

  it('reports a priming event held with the answer', () => {
    expect(findings(call(`. +1500 ms\nid: 1\ndata:\n\nid: 2\n${answer}\n`))[0]?.message).toContain(
      "c1's priming event and its answer arrived together",
    );
  });

  it('stays quiet for a stream that arrived as it was written, a quick answer, and a late answer alone', () => {
    expect(
      findings(
        call(
          `id: 1\ndata:\n\n. +800 ms\nid: 2\n${progress(1)}\n. +800 ms\nid: 3\n${progress(2)}\n. +800 ms\nid: 4\n${answer}\n`,
        ),
      ),
    ).toEqual([]);
    expect(findings(call(`id: 1\n${progress(1)}\nid: 2\n${progress(2)}\nid: 3\n${answer}\n`))).toEqual([]);
    expect(findings(call(`. +5000 ms\nid: 1\n${answer}\n`))).toEqual([]);
  });

  it('has a settable wait', () => {
    const late = call(`. +700 ms\nid: 1\n${progress(1)}\nid: 2\n${progress(2)}\nid: 3\n${answer}\n`);
    expect(findings(late)).toEqual([]);
    expect(findings(late, 500)).toHaveLength(1);
  });

  it('leaves a plain HAR alone: its one body chunk at the end says nothing about when the events came', () => {
    const held = parseTranscript(call(`. +2500 ms\nid: 1\n${progress(1)}\nid: 2\n${progress(2)}\nid: 3\n${answer}\n`));
    const timed = importHar(exportHar(held));
    expect(analyze(timed).findings.map((f) => f.rule)).toContain(RULE);
    // DevTools' and Playwright's HAR: the same entry without our per-chunk times.
    const plain = JSON.parse(exportHar(held)) as { log: { entries: Record<string, unknown>[] } };
    for (const entry of plain.log.entries) delete entry._chunks;
    const imported = importHar(JSON.stringify(plain));
    expect(imported.connections.find((c) => c.method === 'POST')?.chunkTimesUnknown).toBe(true);
    expect(analyze(imported).findings.map((f) => f.rule)).not.toContain(RULE);
    // Exported again, it stays a plain HAR: no times are invented on the way out.
    expect(importHar(exportHar(imported)).connections.find((c) => c.method === 'POST')?.chunkTimesUnknown).toBe(true);
  });
});
