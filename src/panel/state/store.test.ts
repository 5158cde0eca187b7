import { describe, expect, it } from 'vitest';
import type { ConnectionDelta } from '../../protocol/records';
import { initialState, reduce } from './store';

const start = (id: string): ConnectionDelta => ({
  kind: 'start',
  conn: { id, source: 'fetch', method: 'GET', url: 'http://127.0.0.1/mcp', requestHeaders: [], startTime: 1 },
});

const snapshot = (deltas: ConnectionDelta[], preserveLog = false) =>
  ({
    type: 'transport',
    message: { type: 'snapshot', tabId: 7, pageUrl: 'http://127.0.0.1/app', deltas, preserveLog, droppedBytes: 12 },
  }) as const;

describe('panel reducer (UI thread: the records live in the worker, see held.test.ts)', () => {
  it('a snapshot tells the page, its preserve-log setting and what its buffer dropped; deltas change nothing here', () => {
    const s = reduce(initialState, snapshot([start('a')], true));
    expect(s.pageUrl).toBe('http://127.0.0.1/app');
    expect(s.droppedBytes).toBe(12);
    expect(s.preserveLog).toBe(true);
    expect(s.received).toBe(true);
    expect(reduce(s, { type: 'transport', message: { type: 'deltas', tabId: 7, deltas: [start('b')] } })).toBe(s);
  });

  it('a re-attach after a worker restart (bridges resumed, reporting nothing dropped) keeps what was dropped before', () => {
    const first = reduce(initialState, {
      type: 'transport',
      message: { ...snapshot([start('a')]).message, droppedBytes: 12, droppedConnections: 2 },
    });
    const resumed = reduce(first, {
      type: 'transport',
      message: { ...snapshot([]).message, droppedBytes: 0, droppedConnections: 0 },
    });
    expect([resumed.droppedBytes, resumed.droppedConnections]).toEqual([12, 2]);
  });

  it('navigation drops the selection unless preserve log is on', () => {
    const s = reduce(reduce(initialState, snapshot([start('a')])), {
      type: 'select',
      selection: { kind: 'connection', connectionId: 'a' },
    });
    const cleared = reduce(s, {
      type: 'transport',
      message: { type: 'navigated', tabId: 7, pageUrl: 'http://127.0.0.1/next', preserveLog: false },
    });
    expect(cleared.selection).toBeUndefined();
    expect(cleared.pageUrl).toBe('http://127.0.0.1/next');
    const kept = reduce(s, {
      type: 'transport',
      message: { type: 'navigated', tabId: 7, pageUrl: 'http://127.0.0.1/next', preserveLog: true },
    });
    expect(kept.selection).toEqual({ kind: 'connection', connectionId: 'a' });
  });

  it('toggles recording', () => {
    expect(reduce(initialState, { type: 'toggle-recording' }).recording).toBe(false);
  });

  it('an imported file is on screen until back to live; live messages meanwhile change nothing', () => {
    let s = reduce(reduce(initialState, snapshot([start('a')])), { type: 'imported', name: 'run.har', connections: 1 });
    expect(s.source).toEqual({ kind: 'file', name: 'run.har' });
    expect(s.notice).toEqual({ kind: 'info', text: 'Viewing run.har: 1 connection.' });
    const before = s;
    s = reduce(s, snapshot([start('b')]));
    expect(s).toBe(before);
    s = reduce(s, { type: 'back-to-live' });
    expect(s.source).toEqual({ kind: 'live' });
    expect(s.notice).toBeUndefined();
  });

  it('a failed import keeps what was shown and says why', () => {
    const s = reduce(reduce(initialState, snapshot([start('a')])), {
      type: 'import-failed',
      name: 'x.json',
      message: 'unknown capture version 9',
    });
    expect(s.source).toEqual({ kind: 'live' });
    expect(s.notice).toEqual({ kind: 'error', text: 'Could not import x.json: unknown capture version 9' });
  });

  it('an import under way shows how far it is; late or older reports do not bring it back', () => {
    const at = (seq: number, bytes: number) => ({ seq, name: 'big.har', bytes, total: 100 });
    let s = reduce(initialState, { type: 'import-progress', progress: at(3, 0) });
    s = reduce(s, { type: 'import-progress', progress: at(3, 40) });
    expect(s.importing).toEqual(at(3, 40));
    expect(reduce(s, { type: 'import-progress', progress: at(3, 20) }).importing).toEqual(at(3, 40));
    expect(reduce(s, { type: 'import-progress', progress: at(2, 90) }).importing).toEqual(at(3, 40));
    const cancelled = reduce(s, { type: 'import-cancelled', name: 'big.har' });
    expect(cancelled.importing).toBeUndefined();
    expect(cancelled.notice).toEqual({ kind: 'info', text: 'Import of big.har cancelled: nothing changed.' });
    expect(reduce(cancelled, { type: 'import-progress', progress: at(3, 100) }).importing).toBeUndefined();
    const done = reduce(s, { type: 'imported', name: 'big.har', connections: 2 });
    expect(done.importing).toBeUndefined();
    expect(done.notice?.text).toBe('Viewing big.har: 2 connections.');
    expect(reduce(s, { type: 'import-failed', name: 'big.har', message: 'x' }).importing).toBeUndefined();
  });

  it('severity toggles flip one severity at a time', () => {
    const s = reduce(initialState, { type: 'toggle-severity', severity: 'info' });
    expect(s.severities).toEqual({ error: true, warning: true, info: false });
  });

  it('clear closes an imported file and forgets what the buffer dropped', () => {
    const shown = reduce(reduce(initialState, snapshot([])), { type: 'imported', name: 'x.json', connections: 0 });
    const s = reduce(shown, { type: 'clear' });
    expect(s.source).toEqual({ kind: 'live' });
    expect(s.droppedBytes).toBe(0);
  });
});
