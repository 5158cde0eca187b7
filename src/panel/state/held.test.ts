import { describe, expect, it } from 'vitest';
import type { Capture } from '../../core/capture/model';
import type { ConnectionDelta } from '../../protocol/records';
import { initialHeld, reduceHeld, type HeldCommand, type HeldState } from './held';

const start = (id: string): ConnectionDelta => ({
  kind: 'start',
  conn: { id, source: 'fetch', method: 'GET', url: 'http://127.0.0.1/mcp', requestHeaders: [], startTime: 1 },
});
const chunk = (id: string, s: string): ConnectionDelta => ({
  kind: 'chunk',
  id,
  t: 2,
  bytes: new TextEncoder().encode(s),
});
const ids = (s: HeldState) => s.records.connections.map((c) => c.id);
const run = (commands: HeldCommand[], from: HeldState = initialHeld) => commands.reduce(reduceHeld, from);

const snapshot = (deltas: ConnectionDelta[], preserveLog = false): HeldCommand => ({
  type: 'transport',
  message: { type: 'snapshot', tabId: 7, pageUrl: 'http://127.0.0.1/app', deltas, preserveLog, droppedBytes: 12 },
});
const deltas = (...d: ConnectionDelta[]): HeldCommand => ({
  type: 'transport',
  message: { type: 'deltas', tabId: 7, deltas: d },
});
const file = (connections: Capture['connections']): Capture => ({
  tool: { name: 'mcp-stream-inspector', version: '0.1.0' },
  createdAt: 5,
  connections,
});

describe('the records the analysis worker holds', () => {
  it('a snapshot merges with what the panel holds (nothing lost on a worker restart), then deltas append', () => {
    let s = run([deltas(start('old')), snapshot([start('a')])]);
    expect(ids(s)).toEqual(['old', 'a']);
    expect(s.pageUrl).toBe('http://127.0.0.1/app');
    s = run([deltas(start('b'), chunk('a', 'x'))], s);
    expect(ids(s)).toEqual(['old', 'a', 'b']);
    expect(s.records.connections[1]!.chunks).toHaveLength(1);
  });

  it('keeps each chunk as the bytes it arrived as (no copy, no text)', () => {
    const c = chunk('a', 'data: x\n\n');
    const s = run([snapshot([start('a')]), deltas(c)]);
    expect(s.records.connections[0]!.chunks[0]!.bytes).toBe((c as Extract<ConnectionDelta, { kind: 'chunk' }>).bytes);
  });

  it('navigation clears unless preserve log is on', () => {
    const s = run([snapshot([start('a')])]);
    const navigated = (preserveLog: boolean): HeldCommand => ({
      type: 'transport',
      message: { type: 'navigated', tabId: 7, pageUrl: 'http://127.0.0.1/next', preserveLog },
    });
    const cleared = reduceHeld(s, navigated(false));
    expect(ids(cleared)).toEqual([]);
    expect(cleared.pageUrl).toBe('http://127.0.0.1/next');
    expect(ids(reduceHeld(s, navigated(true)))).toEqual(['a']);
  });

  it('stops taking new connections while recording is off', () => {
    const s = run([snapshot([start('a')]), { type: 'recording', on: false }, deltas(start('b'), chunk('a', 'x'))]);
    expect(ids(s)).toEqual(['a']);
    expect(s.records.connections[0]!.chunks).toHaveLength(1);
  });

  it('an imported file replaces live data and live messages wait until back to live', () => {
    const imported = file([
      {
        id: 'f1',
        source: 'har',
        method: 'POST',
        url: 'http://x/mcp',
        requestHeaders: [],
        startTime: 1,
        chunks: [],
        end: 'complete',
      },
    ]);
    let s = run([snapshot([start('a')]), { type: 'imported', capture: imported }]);
    expect(ids(s)).toEqual(['f1']);
    expect(s.source).toBe('file');
    s = run([deltas(start('b'))], s);
    expect(ids(s)).toEqual(['f1']);
    s = run([{ type: 'clear' }], s);
    expect(s.source).toBe('live');
    expect(ids(s)).toEqual([]);
    s = run([snapshot([start('a'), start('b')])], s);
    expect(ids(s)).toEqual(['a', 'b']);
  });

  it('after a clear, late updates of the dropped connections are not reported as lost data', () => {
    const s = run([
      snapshot([start('a')]),
      { type: 'clear' },
      deltas(chunk('a', 'late')),
      snapshot([]),
      deltas(chunk('a', 'later'), chunk('ghost', 'x')),
    ]);
    expect(ids(s)).toEqual([]);
    expect(s.records.orphanDeltas).toBe(1);
  });

  it('clear closes an imported file', () => {
    expect(run([{ type: 'imported', capture: file([]) }, { type: 'clear' }]).source).toBe('live');
  });
});
