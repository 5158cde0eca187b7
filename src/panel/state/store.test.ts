import { describe, expect, it } from 'vitest';
import type { Capture } from '../../core/capture/model';
import type { ConnectionDelta } from '../../protocol/records';
import { initialState, reduce, type PanelState } from './store';

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
const ids = (s: PanelState) => s.records.connections.map((c) => c.id);

const snapshot = (deltas: ConnectionDelta[], preserveLog = false) =>
  ({
    type: 'transport',
    message: { type: 'snapshot', tabId: 7, pageUrl: 'http://127.0.0.1/app', deltas, preserveLog, droppedBytes: 12 },
  }) as const;

describe('panel reducer', () => {
  it('a snapshot merges with what the panel holds (nothing lost on a worker restart), then deltas append', () => {
    let s = reduce(initialState, { type: 'transport', message: { type: 'deltas', tabId: 7, deltas: [start('old')] } });
    s = reduce(s, snapshot([start('a')]));
    expect(ids(s)).toEqual(['old', 'a']);
    expect(s.pageUrl).toBe('http://127.0.0.1/app');
    expect(s.droppedBytes).toBe(12);
    s = reduce(s, { type: 'transport', message: { type: 'deltas', tabId: 7, deltas: [start('b'), chunk('a', 'x')] } });
    expect(ids(s)).toEqual(['old', 'a', 'b']);
    expect(s.records.connections[1]!.chunks).toHaveLength(1);
  });

  it('navigation clears unless preserve log is on', () => {
    const s = reduce(reduce(initialState, snapshot([start('a')])), {
      type: 'select',
      selection: { kind: 'connection', connectionId: 'a' },
    });
    const cleared = reduce(s, {
      type: 'transport',
      message: { type: 'navigated', tabId: 7, pageUrl: 'http://127.0.0.1/next', preserveLog: false },
    });
    expect(ids(cleared)).toEqual([]);
    expect(cleared.selection).toBeUndefined();
    expect(cleared.pageUrl).toBe('http://127.0.0.1/next');
    const kept = reduce(s, {
      type: 'transport',
      message: { type: 'navigated', tabId: 7, pageUrl: 'http://127.0.0.1/next', preserveLog: true },
    });
    expect(ids(kept)).toEqual(['a']);
  });

  it('stops taking new connections while recording is off', () => {
    let s = reduce(reduce(initialState, snapshot([start('a')])), { type: 'toggle-recording' });
    expect(s.recording).toBe(false);
    s = reduce(s, { type: 'transport', message: { type: 'deltas', tabId: 7, deltas: [start('b'), chunk('a', 'x')] } });
    expect(ids(s)).toEqual(['a']);
    expect(s.records.connections[0]!.chunks).toHaveLength(1);
  });

  it('an imported file replaces live data and live messages wait until back to live', () => {
    const capture: Capture = {
      tool: { name: 'mcp-stream-inspector', version: '0.1.0' },
      createdAt: 5,
      connections: [
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
      ],
    };
    let s = reduce(reduce(initialState, snapshot([start('a')])), { type: 'imported', name: 'run.har', capture });
    expect(ids(s)).toEqual(['f1']);
    expect(s.source).toEqual({ kind: 'file', name: 'run.har' });
    s = reduce(s, { type: 'transport', message: { type: 'deltas', tabId: 7, deltas: [start('b')] } });
    expect(ids(s)).toEqual(['f1']);
    s = reduce(s, { type: 'back-to-live' });
    expect(s.source).toEqual({ kind: 'live' });
    expect(ids(s)).toEqual([]);
    s = reduce(s, snapshot([start('a'), start('b')]));
    expect(ids(s)).toEqual(['a', 'b']);
  });

  it('a failed import keeps what was shown and says why', () => {
    const s = reduce(reduce(initialState, snapshot([start('a')])), {
      type: 'import-failed',
      name: 'x.json',
      message: 'unknown capture version 9',
    });
    expect(ids(s)).toEqual(['a']);
    expect(s.notice).toEqual({ kind: 'error', text: 'Could not import x.json: unknown capture version 9' });
  });

  it('severity toggles flip one severity at a time', () => {
    const s = reduce(initialState, { type: 'toggle-severity', severity: 'info' });
    expect(s.severities).toEqual({ error: true, warning: true, info: false });
  });

  it('after a clear, late updates of the dropped connections are not reported as lost data', () => {
    let s = reduce(initialState, snapshot([start('a')]));
    s = reduce(s, { type: 'clear' });
    expect(ids(s)).toEqual([]);
    s = reduce(s, { type: 'transport', message: { type: 'deltas', tabId: 7, deltas: [chunk('a', 'late')] } });
    s = reduce(s, snapshot([]));
    s = reduce(s, {
      type: 'transport',
      message: { type: 'deltas', tabId: 7, deltas: [chunk('a', 'later'), chunk('ghost', 'x')] },
    });
    expect(ids(s)).toEqual([]);
    expect(s.records.orphanDeltas).toBe(1);
  });

  it('clear closes an imported file', () => {
    const capture: Capture = {
      tool: { name: 'mcp-stream-inspector', version: '0.1.0' },
      createdAt: 5,
      connections: [],
    };
    const s = reduce(reduce(initialState, { type: 'imported', name: 'x.json', capture }), { type: 'clear' });
    expect(s.source).toEqual({ kind: 'live' });
  });
});
