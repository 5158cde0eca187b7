import { describe, expect, it } from 'vitest';
import { detectScheme } from '../ids/scheme';
import { rpc, session, sseEvent, Transcript } from '../guard/transcript';
import { combineSchemes, parseConnection, parseHead, SseBodyReader, assembleConnection } from './connection';

describe('combineSchemes', () => {
  it.each([
    [['1', '2'], [], ['3']],
    [['1'], ['srv:4']],
    [[], ['s1_1795967688000_k3j']],
    [['e:1'], [], ['e:2', 'e:3']],
    [['1'], ['not an id']],
    [['not an id'], ['1']],
    [['1', 'a:1'], ['2']],
    [[], []],
  ])('per connection %j ... gives the scheme of all ids read in one go', (...pieces: string[][]) => {
    const folded = pieces.reduce((scheme, ids) => combineSchemes(scheme, detectScheme(ids)), detectScheme([]));
    expect(folded).toBe(detectScheme(pieces.flat()));
  });
});

describe('SseBodyReader', () => {
  it('read in steps, gives what parsing the whole record gives, and earlier results stay as they were', () => {
    const t = new Transcript();
    session(
      t,
      'S',
    )({
      body: rpc.request(1, 'tools/call'),
      sse: [
        'id: 1\nda',
        'ta: {"jsonrpc":"2.0","method":"a"}\n',
        '\nid: 2\ndata: {"jsonrpc"',
        ':"2.0","id":1,"result":{}}\n\n',
        'id: 3\ndata: torn',
      ],
      end: 'network-error',
    });
    const record = t.capture().connections[0]!;
    const head = parseHead(record);
    const reader = new SseBodyReader();
    const seen: number[] = [];
    const snapshots = [];
    for (let n = 1; n <= record.chunks.length; n++) {
      // Open while chunks are missing; the last step is the record as it ended.
      const sofar =
        n < record.chunks.length ? { ...record, chunks: record.chunks.slice(0, n), end: 'open' as const } : record;
      reader.read(sofar.chunks);
      const partial = assembleConnection({ ...head, record: sofar }, reader);
      seen.push(partial.table.count);
      snapshots.push({ partial, events: partial.table.count });
    }
    expect(seen).toEqual([0, 0, 1, 2, 2]);
    expect(snapshots[2]?.partial.tail).toMatchObject({ id: '2', pendingLine: 'data: {"jsonrpc"' });
    for (const { partial, events } of snapshots) expect(partial.table.count).toBe(events);
    const whole = parseConnection(record);
    expect(snapshots.at(-1)?.partial).toStrictEqual(whole);
    expect(whole.tail?.id).toBe('3');
    const kinds = [0, 1].map((row) => whole.table.envelopes(row).map((m) => m.kind));
    expect(kinds).toEqual([['notification'], ['response']]);
  });

  it('gives an SSE error event its messages but no parse error (only `message` events must be JSON-RPC)', () => {
    const t = new Transcript();
    session(t, 'S')({ sse: [sseEvent('1', 'gone', 'error'), sseEvent('2', 'gone')] });
    const { table } = parseConnection(t.capture().connections[0]!);
    expect([table.type(0), table.messageCount(0), table.rareAt(0)?.parseError]).toEqual(['error', 0, undefined]);
    expect(table.rareAt(1)?.parseError).toMatch(/not complete JSON/);
  });
});
