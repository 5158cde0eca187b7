// The event table keeps what the parser reported, and an event's data read again from its bytes is the parser's.
import { describe, expect, it } from 'vitest';
import type { BodyChunk } from '../capture/model';
import { bytesOf, concatBytes, feedings, parseChunks, seededRandom } from '../sse/test-support';
import { SseBodyReader } from './connection';
import { eventData } from './event-data';
import type { EventTable } from './event-table';

const STREAMS: Record<string, Uint8Array> = {
  'LF, CRLF and CR line ends': bytesOf('id: 1\ndata: a\n\nid: 2\r\ndata: b\r\n\r\nid: 3\rdata: c\r\r'),
  'multi-line data, comments, fields without a value': bytesOf(
    ': hi\ndata\ndata:\ndata: x\ndata:  two spaces\n\nevent: e\ndata:y\nretry: 10\n\n',
  ),
  'names that only start like data': bytesOf('dataX: no\ndata : no\n datum: no\ndata: yes\n\n'),
  'an id-only block and events without ids': bytesOf('id: 7\n\ndata: a\n\nid\ndata: b\n\n'),
  'a BOM at the start and U+FEFF inside': concatBytes(
    [0xef, 0xbb, 0xbf],
    'data: a\n\n',
    [0xef, 0xbb, 0xbf],
    'data: b\n\n',
  ),
  'non-ASCII text, and UTF-8 cut short before a line end': concatBytes(
    'data: é€😀 ünïcödé\n\ndata: ',
    [0xe2, 0x82],
    '\ndata: ',
    [0xff, 0xfe],
    ' tail\n\n',
  ),
  'JSON-RPC with counters, epochs and SDK-style ids': bytesOf(
    [
      'id: 41\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n',
      'id: e1:5\ndata: {"jsonrpc":"2.0","id":"a","result":{}}\n\n',
      'id: s1_1795967688000_k3j\ndata: [{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","method":"x"}]\n\n',
      'id: 007\ndata: {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}\n\n',
      'id: 9\ndata: {"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"m"}}\n\n',
      'data: not json\n\n',
    ].join(''),
  ),
};

/** Random streams of field lines (data mostly), comments and blank lines, with any of the three line ends. */
function randomStream(seed: number): Uint8Array {
  const random = seededRandom(seed);
  const pick = (options: readonly string[]) => options[Math.floor(random() * options.length)] as string;
  let text = '';
  for (let i = 0; i < 80; i++) {
    const end = pick(['\n', '\r', '\r\n']);
    const name = pick(['data', 'data', 'data', 'id', 'event', 'retry', ': comment', 'dataX', ' data', '']);
    text += `${name}${pick([':', ': ', ':  ', ''])}${pick(['x', 'é€😀', '7', '{}', 'a b', ''])}${end}`;
    if (random() < 0.3) text += end;
  }
  return bytesOf(`${text}\n\n`);
}

function tableOf(chunks: readonly Uint8Array[]) {
  const body: BodyChunk[] = chunks.map((bytes, t) => ({ t, bytes }));
  const reader = new SseBodyReader();
  reader.read(body);
  return { body, table: reader.body('complete').table };
}

describe('event table', () => {
  const streams = Object.entries(STREAMS).concat([1, 2, 3, 4].map((seed) => [`random ${seed}`, randomStream(seed)]));
  it.each(streams)('holds what the parser dispatched, the data read again from the bytes: %s', (_name, bytes) => {
    for (const { name, chunks } of feedings(bytes, [1, 2])) {
      const { events } = parseChunks(chunks);
      const { body, table } = tableOf(chunks);
      expect(table.count, name).toBe(events.length);
      expect(events.length).toBeGreaterThan(0);
      events.forEach((event, row) => {
        const kept = {
          type: table.type(row),
          data: eventData(body, table, row),
          lastEventId: table.lastEventId(row),
          hasId: table.hasId(row),
          retry: table.rareAt(row)?.retry,
          start: table.columns.start.at(row),
          end: table.end(row),
          firstChunk: table.firstChunk(row),
          lastChunk: table.columns.lastChunk.at(row),
        };
        expect(kept, `${name}, event ${row}`).toEqual(event);
        expect(table.columns.dataLength.at(row)).toBe(event.data.length);
      });
    }
  });

  it('keeps the envelopes of the messages, and why data is not JSON-RPC', () => {
    const { table } = tableOf([STREAMS['JSON-RPC with counters, epochs and SDK-style ids'] as Uint8Array]);
    const rows = Array.from({ length: table.count }, (_, row) => ({
      envelopes: table.envelopes(row),
      count: table.messageCount(row),
      error: table.rareAt(row)?.parseError,
    }));
    expect(rows).toEqual([
      { envelopes: [{ kind: 'notification', method: 'notifications/progress' }], count: 1, error: undefined },
      { envelopes: [{ kind: 'response', id: 'a' }], count: 1, error: undefined },
      {
        envelopes: [
          { kind: 'response', id: 1 },
          { kind: 'notification', method: 'x' },
        ],
        count: 2,
        error: undefined,
      },
      {
        envelopes: [{ kind: 'notification', method: 'notifications/cancelled', cancels: 3 }],
        count: 1,
        error: undefined,
      },
      { envelopes: [{ kind: 'error', id: 2 }], count: 1, error: undefined },
      { envelopes: [], count: 0, error: expect.stringMatching(/^not complete JSON/) as unknown },
    ]);
    expect(['41', 'e1:5', 's1_1795967688000_k3j', '007', '9'].map((id) => table.hasOwnId(id))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['4', '41 ', 'e1:6', '7', ''].map((id) => table.hasOwnId(id))).toEqual([false, false, false, false, false]);
  });

  it('snapshots a live body without copying it, and a later snapshot continues an earlier one unchanged', () => {
    const bytes = STREAMS['JSON-RPC with counters, epochs and SDK-style ids'] as Uint8Array;
    const chunks = feedings(bytes, [3]).at(-1)?.chunks ?? [];
    const body: BodyChunk[] = chunks.map((b, t) => ({ t, bytes: b }));
    const reader = new SseBodyReader();
    const idsOf = (table: EventTable) => Array.from({ length: table.count }, (_, row) => table.lastEventId(row));
    const snapshots: { table: EventTable; ids: string[] }[] = [];
    for (let n = 1; n <= body.length; n++) {
      reader.read(body.slice(0, n));
      const { table } = reader.body('open');
      snapshots.push({ table, ids: idsOf(table) });
    }
    // Read again after the reader moved on: each snapshot still holds what it held.
    for (const { table, ids } of snapshots) expect(idsOf(table)).toEqual(ids);
    const pairs = snapshots.slice(1).map(({ table }, i) => table.continues((snapshots[i] ?? { table }).table));
    expect(pairs.every(Boolean)).toBe(true);
    const fresh = tableOf(chunks).table;
    expect(fresh.continues(snapshots.at(-1)?.table ?? fresh)).toBe(false);
  });
});
