import { describe, expect, it } from 'vitest';
import { analyze } from '../../core/analyze';
import type { ConnectionRecord } from '../../core/capture/model';
import { rpc, session, sseEvent, Transcript } from '../../core/guard/testing';
import type { ConnectionDelta } from '../../protocol/records';
import { HEAD_KEEP_BYTES } from '../../protocol/trim';
import { enforceBudget, heldBytes, NO_DROPS, recordSize, type PanelBudget } from './budget';
import { captureToRecords, recordsToCapture } from './capture';
import { initialHeld, reduceHeld, type HeldCommand } from './held';
import { applyDeltas, emptyRecords, type RecordsState } from './records';

const KIB = 1024;
const start = (id: string, t: number): ConnectionDelta => ({
  kind: 'start',
  conn: { id, source: 'fetch', method: 'GET', url: 'http://127.0.0.1/mcp', requestHeaders: [], startTime: t },
});
/** A chunk of `size` bytes, each the chunk's `fill` (so a test can tell which chunk a byte came from). */
const chunk = (id: string, size: number, t: number, fill = 0): ConnectionDelta => ({
  kind: 'chunk',
  id,
  t,
  bytes: new Uint8Array(size).fill(fill),
});
const end = (id: string, t: number): ConnectionDelta => ({ kind: 'end', id, end: 'complete', endTime: t });
const finished = (id: string, t: number, size: number): ConnectionDelta[] => [
  start(id, t),
  chunk(id, size, t + 1),
  end(id, t + 2),
];
const open = (id: string, t: number, size: number): ConnectionDelta[] => [start(id, t), chunk(id, size, t + 1)];
const records = (...deltas: ConnectionDelta[][]): RecordsState => applyDeltas(emptyRecords, deltas.flat());
const body = (r: ConnectionRecord) => r.chunks.reduce((sum, c) => sum + c.bytes.byteLength, 0);
const byId = (state: RecordsState, id: string) => state.connections[state.indexById.get(id) ?? -1];
const big: PanelBudget = { bytes: 1 << 30, connections: 1000 };

describe('the panel budget', () => {
  it('changes nothing within budget (the same object back)', () => {
    const state = records(finished('a', 1, 100), open('b', 10, 100));
    const out = enforceBudget(state, big, NO_DROPS);
    expect(out.records).toBe(state);
    expect(out.dropped).toBe(NO_DROPS);
  });

  it('over bytes, finished connections give up their bodies oldest first; the open stream keeps its bytes', () => {
    const state = records(finished('old', 1, 40 * KIB), open('live', 5, 40 * KIB), finished('newer', 10, 40 * KIB));
    // Room for about two bodies: the oldest finished goes, the newer finished and the open one stay whole.
    const budget = { bytes: Math.floor(heldBytes(state) * 0.9), connections: 1000 };
    const out = enforceBudget(state, budget, NO_DROPS);
    expect(out.records.connections.map((r) => r.id)).toEqual(['old', 'live', 'newer']);
    // It gives up only what it must: its head and newest bytes stay, the middle is a gap.
    const old = byId(out.records, 'old')!;
    expect(old.gaps).toHaveLength(1);
    expect(old.gaps![0]).toMatchObject({ t: 2, cause: 'panel-budget' });
    expect(old.gaps![0]!.offset).toBeGreaterThan(0);
    expect(body(old) + old.gaps![0]!.bytes).toBe(40 * KIB);
    expect(body(byId(out.records, 'newer')!)).toBe(40 * KIB);
    expect(body(byId(out.records, 'live')!)).toBe(40 * KIB);
    expect(heldBytes(out.records)).toBeLessThanOrEqual(budget.bytes);
    // Gapped, not dropped: the connection and its head are still there.
    expect(out.dropped).toEqual({ connections: 0, bytes: 0 });
  });

  it('tighter still, every finished body goes before an open stream loses anything', () => {
    const state = records(finished('a', 1, 40 * KIB), finished('b', 2, 40 * KIB), open('live', 3, 40 * KIB));
    const out = enforceBudget(state, { bytes: 60 * KIB, connections: 1000 }, NO_DROPS);
    expect(byId(out.records, 'a')!.chunks).toEqual([]);
    expect(byId(out.records, 'a')!.gaps).toEqual([{ offset: 0, bytes: 40 * KIB, t: 2, cause: 'panel-budget' }]);
    expect(byId(out.records, 'b')!.gaps?.[0]?.cause).toBe('panel-budget');
    expect(body(byId(out.records, 'live')!)).toBe(40 * KIB);
  });

  it('an open stream over the whole budget keeps its head and newest bytes; the middle is a gap at its offset', () => {
    const deltas: ConnectionDelta[] = [start('s', 1)];
    // 40 chunks of 16 KiB, chunk i filled with i: 640 KiB against a 256 KiB budget.
    for (let i = 0; i < 40; i++) deltas.push(chunk('s', 16 * KIB, 10 + i, i));
    const state = applyDeltas(emptyRecords, deltas);
    const budget = { bytes: 256 * KIB, connections: 1000 };
    const out = enforceBudget(state, budget, NO_DROPS);
    const record = out.records.connections[0]!;
    expect(heldBytes(out.records)).toBeLessThanOrEqual(budget.bytes);
    const fills = record.chunks.map((c) => c.bytes[0]);
    // The head: the chunks that started within the first 64 KiB; the newest chunks after the gap.
    expect(fills.slice(0, HEAD_KEEP_BYTES / (16 * KIB))).toEqual([0, 1, 2, 3]);
    expect(fills.at(-1)).toBe(39);
    const gaps = record.gaps ?? [];
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatchObject({ offset: HEAD_KEEP_BYTES, cause: 'panel-budget', t: 14 });
    // Kept bytes and the gap add up to the page's body; the first chunk after the gap is the one after the hole.
    expect(body(record) + gaps[0]!.bytes).toBe(40 * 16 * KIB);
    // Byte-exact: the first byte after the gap is the page's byte at that body offset.
    expect(fills[4]).toBe(Math.floor((HEAD_KEEP_BYTES + gaps[0]!.bytes) / (16 * KIB)));
    // Later chunks go on after what is kept, and a second trim grows the same gap.
    const more = applyDeltas(
      out.records,
      Array.from({ length: 10 }, (_, i) => chunk('s', 16 * KIB, 40 + i, 100 + i)),
    );
    const again = enforceBudget(more, budget, NO_DROPS).records.connections[0]!;
    expect(again.gaps).toHaveLength(1);
    expect(body(again) + again.gaps![0]!.bytes).toBe(50 * 16 * KIB);
    expect(again.chunks.at(-1)!.bytes[0]).toBe(109);
  });

  it('a stream whose chunks are each bigger than the budget still keeps a head and its newest bytes', () => {
    const state = records([start('s', 1), chunk('s', 900 * KIB, 2, 1), chunk('s', 900 * KIB, 3, 2)]);
    const budget = { bytes: 256 * KIB, connections: 1000 };
    const out = enforceBudget(state, budget, NO_DROPS);
    const record = out.records.connections[0]!;
    expect(out.dropped.connections).toBe(0);
    expect(heldBytes(out.records)).toBeLessThanOrEqual(budget.bytes);
    expect(record.chunks[0]!.bytes.byteLength).toBe(HEAD_KEEP_BYTES);
    expect(record.chunks.map((c) => c.bytes[0])).toEqual([1, 2]);
    expect(record.gaps).toEqual([
      { offset: HEAD_KEEP_BYTES, bytes: 1800 * KIB - body(record), t: 2, cause: 'panel-budget' },
    ]);
    // What is kept are copies: the big buffers are not held by a view.
    expect(record.chunks[1]!.bytes.buffer.byteLength).toBe(record.chunks[1]!.bytes.byteLength);
  });

  it('over the connection budget, whole connections go oldest finished first, counted; late deltas are quiet', () => {
    const list: ConnectionDelta[][] = [open('live', 0, 10)];
    for (let i = 0; i < 14; i++) list.push(finished(`f${i}`, 10 + i, 10));
    const state = records(...list);
    const out = enforceBudget(state, { bytes: 1 << 30, connections: 10 }, { connections: 2, bytes: 5 });
    // Down to 90% of the budget: 9 kept, the open one among them although it is the oldest.
    const kept = ['live', 'f6', 'f7', 'f8', 'f9', 'f10', 'f11', 'f12', 'f13'];
    expect(out.records.connections.map((r) => r.id)).toEqual(kept);
    expect(out.dropped.connections).toBe(2 + 6);
    const droppedBytes = state.connections.slice(1, 7).reduce((sum, r) => sum + recordSize(r), 0);
    expect(out.dropped.bytes).toBe(5 + droppedBytes);
    expect(out.records.indexById.get('f7')).toBe(2);
    const late = applyDeltas(out.records, [chunk('f0', 4, 99)]);
    expect(late.orphanDeltas).toBe(0);
  });

  it('leaves the findings on kept connections unchanged, and the gapped ones are never a server fault', () => {
    const t = new Transcript();
    // An older session whose finished streams carry most of the bytes.
    const old = session(t, 'OLD');
    old({ body: rpc.request(1, 'initialize'), sse: [sseEvent('1', rpc.result(1))] });
    for (let i = 2; i < 8; i++) {
      const progress = Array.from({ length: 40 }, (_, k) =>
        sseEvent(`${i}-${k}`, {
          ...rpc.progress(i, k),
          pad: 'x'.repeat(400),
        }),
      );
      old({ body: rpc.request(i, 'tools/call'), sse: [...progress, sseEvent(`${i}-r`, rpc.result(i))] });
    }
    // A newer one with a torn event that was resumed, and a request never answered.
    const s = session(t, 'NEW');
    s({ body: rpc.request(1, 'initialize'), sse: [sseEvent('1', rpc.result(1))] });
    s({
      body: rpc.request(2, 'tools/call'),
      sse: [sseEvent('2', rpc.progress(2, 1)), 'event: message\nid: 3\ndata: {"jsonrpc":"2.0","meth'],
      end: 'network-error',
    });
    s({ headers: { 'last-event-id': '2' }, sse: [sseEvent('3', rpc.progress(2, 2))] });
    const capture = t.capture();
    const state = captureToRecords(capture);
    const newIds = new Set(state.connections.filter((r) => headerOf(r, 'mcp-session-id') === 'NEW').map((r) => r.id));
    const before = analyze(capture).findings;
    const budget = { bytes: Math.floor(heldBytes(state) / 3), connections: 1000 };
    const out = enforceBudget(state, budget, NO_DROPS);
    expect(out.records.connections.some((r) => r.gaps?.some((g) => g.cause === 'panel-budget'))).toBe(true);
    const after = analyze(recordsToCapture(out.records, { toolVersion: 'test', createdAt: 0 })).findings;
    const on = (findings: typeof before) =>
      findings.filter((f) => f.connectionId !== undefined && newIds.has(f.connectionId));
    expect(on(before).map((f) => f.rule)).toContain('torn-event-reconnect');
    expect(on(after)).toEqual(on(before));
    // What the budget took is told as a capture gap, an info, with its cause; nothing else new is found.
    const added = after.filter((f) => !before.some((b) => b.rule === f.rule && b.connectionId === f.connectionId));
    expect(new Set(added.map((f) => f.rule))).toEqual(new Set(['capture-gap']));
    expect(added[0]!.message).toContain("panel's per-tab memory budget");
  });

  it('the worker applies it to live records, counts until a clear, and keeps an imported file whole', () => {
    const feed = (...deltas: ConnectionDelta[]): HeldCommand => ({
      type: 'transport',
      message: { type: 'deltas', tabId: 1, deltas },
    });
    let held = reduceHeld(initialHeld, { type: 'budget', budget: { bytes: 1 << 30, connections: 10 } });
    for (let i = 0; i < 12; i++) held = reduceHeld(held, feed(...finished(`c${i}`, i, 8)));
    expect(held.records.connections.length).toBeLessThanOrEqual(10);
    expect(held.dropped.connections).toBe(12 - held.records.connections.length);
    held = reduceHeld(held, { type: 'clear' });
    expect(held.dropped).toEqual(NO_DROPS);
    const file = records(...Array.from({ length: 12 }, (_, i) => finished(`i${i}`, i, 8)));
    held = reduceHeld(held, {
      type: 'imported',
      capture: recordsToCapture(file, { toolVersion: 'test', createdAt: 0 }),
    });
    expect(held.records.connections).toHaveLength(12);
  });
});

function headerOf(record: ConnectionRecord, name: string): string | undefined {
  return record.requestHeaders.find((h) => h.name.toLowerCase() === name)?.value;
}
