// Runs in Node (vitest): the memory store's ids, stream-scoped replay, retention and refusals, on its own.
import { describe, expect, it } from 'vitest';
import { detectScheme, parseId } from '../core/ids/scheme';
import { estimateJsonSize } from './event-size';
import { createEpochEventStore, type EpochEventStoreOptions } from './memory';
import { ResumeRefusedError } from './refusal';
import type { EventMessage, SdkEventStore } from './types';

const progress = (n: number): EventMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 1, progress: n },
});

/** A store on a clock the test moves. */
function clocked(options: EpochEventStoreOptions = {}) {
  let now = 1_000_000;
  const store = createEpochEventStore({ now: () => now, ...options });
  return { store, tick: (ms: number) => void (now += ms) };
}

async function replay(view: SdkEventStore, cursor: string) {
  const sent: { id: string; message: EventMessage }[] = [];
  const streamId = await view.replayEventsAfter(cursor, {
    send: async (id, message) => void sent.push({ id, message }),
  });
  return { streamId, ids: sent.map((s) => s.id), messages: sent.map((s) => s.message) };
}

describe('ids', () => {
  it('are <epoch>:<seq> from one counter across streams and sessions, read by the core as epoch-seq', async () => {
    const store = createEpochEventStore();
    const a = store.forSession('a');
    const b = store.forSession('b');
    const ids = [
      await a.storeEvent('s1', {}),
      await a.storeEvent('s2', progress(1)),
      await b.storeEvent('s1', progress(2)),
      await a.storeEvent('s1', progress(3)),
    ];
    expect(store.epoch).toMatch(/^[0-9a-f]{16}$/);
    expect(ids).toEqual([1, 2, 3, 4].map((n) => `${store.epoch}:${n}`));
    expect(detectScheme(ids)).toBe('epoch-seq');
    expect(parseId('epoch-seq', ids[3] ?? '')).toEqual({ raw: ids[3], epoch: store.epoch, seq: 4 });
  });

  it('take a fresh epoch per store (per process start), or the one given', () => {
    expect(createEpochEventStore().epoch).not.toBe(createEpochEventStore().epoch);
    expect(createEpochEventStore({ epoch: 'gen-7' }).epoch).toBe('gen-7');
    expect(() => createEpochEventStore({ epoch: 'a:b' })).toThrow(/epoch/);
    expect(() => createEpochEventStore({ epoch: 'a b' })).toThrow(/epoch/);
  });
});

describe('stream-scoped replay', () => {
  it("replays exactly the events after the cursor on the cursor's own stream", async () => {
    const store = createEpochEventStore();
    const view = store.forSession('s');
    const a1 = await view.storeEvent('A', {});
    const b1 = await view.storeEvent('B', progress(10));
    await view.storeEvent('A', progress(1));
    await view.storeEvent('B', progress(11));
    await view.storeEvent('A', progress(2));
    expect(await view.getStreamIdForEventId(a1)).toBe('A');
    const fromA = await replay(view, a1);
    expect(fromA.streamId).toBe('A');
    expect(fromA.messages).toEqual([progress(1), progress(2)]);
    expect(fromA.ids).toEqual([3, 5].map((n) => `${store.epoch}:${n}`));
    const fromB = await replay(view, b1);
    expect(fromB).toEqual({ streamId: 'B', ids: [`${store.epoch}:4`], messages: [progress(11)] });
  });

  it('replays nothing after the last event, and the priming event ({}) is an event like others', async () => {
    const store = createEpochEventStore();
    const view = store.forSession('s');
    const priming = await view.storeEvent('A', {});
    expect(await replay(view, priming)).toEqual({ streamId: 'A', ids: [], messages: [] });
    const last = await view.storeEvent('A', progress(1));
    expect((await replay(view, priming)).messages).toEqual([progress(1)]);
    expect((await replay(view, last)).messages).toEqual([]);
  });

  it('sends events stored while the replay awaits (the SDK writes live events only after it returns)', async () => {
    const store = createEpochEventStore();
    const view = store.forSession('s');
    const cursor = await view.storeEvent('A', {});
    await view.storeEvent('A', progress(1));
    const sent: EventMessage[] = [];
    await view.replayEventsAfter(cursor, {
      send: async (_id, message) => {
        sent.push(message);
        if (sent.length === 1) await view.storeEvent('A', progress(2));
      },
    });
    expect(sent).toEqual([progress(1), progress(2)]);
  });
});

describe('retention', () => {
  it('drops events older than the time window; their cursors are refused as evicted', async () => {
    const { store, tick } = clocked({ retainMs: 1000 });
    const view = store.forSession('s');
    const old = await view.storeEvent('A', progress(1));
    tick(600);
    const kept = await view.storeEvent('A', progress(2));
    tick(600);
    await view.storeEvent('A', progress(3));
    expect(store.stats()).toMatchObject({ events: 2, firstSeq: 2, lastSeq: 3 });
    expect(store.checkResume(old, 's')).toMatchObject({ reason: 'evicted', cursor: old, epoch: store.epoch });
    expect(await view.getStreamIdForEventId(old)).toBeUndefined();
    await expect(replay(view, old)).rejects.toBeInstanceOf(ResumeRefusedError);
    expect((await replay(view, kept)).messages).toEqual([progress(3)]);
    // Time alone expires too: a resume after a long silence is judged at the time it comes.
    tick(1001);
    expect(store.checkResume(kept, 's')).toMatchObject({ reason: 'evicted' });
  });

  it('keeps the byte budget, oldest first, one event one slot: a big event is kept whole, never split', async () => {
    const small = progress(1);
    const size = estimateJsonSize(small);
    const store = createEpochEventStore({ maxBytes: size * 3 });
    const view = store.forSession('s');
    const first = await view.storeEvent('A', small);
    const second = await view.storeEvent('A', small);
    await view.storeEvent('A', small);
    expect(store.stats()).toMatchObject({ events: 3, bytes: size * 3 });
    await view.storeEvent('A', small);
    expect(store.stats()).toMatchObject({ events: 3, firstSeq: 2 });
    expect(store.checkResume(first, 's')?.reason).toBe('evicted');
    const big = { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'x'.repeat(size * 10) }] } };
    const last = await view.storeEvent('A', big);
    // The big event alone exceeds the budget: everything older goes, it stays as one slot.
    expect(store.stats()).toMatchObject({ events: 1, bytes: estimateJsonSize(big), firstSeq: 5 });
    expect(store.checkResume(second, 's')?.reason).toBe('evicted');
    const after = await view.storeEvent('A', small);
    expect(store.stats()).toMatchObject({ events: 1, firstSeq: 6 });
    expect(store.checkResume(last, 's')?.reason).toBe('evicted');
    expect(store.checkResume(after, 's')).toBeUndefined();
  });

  it('still resumes a stream whose last event it dropped: nothing followed the cursor', async () => {
    const { store, tick } = clocked({ retainMs: 1000 });
    const view = store.forSession('s');
    const idle = await view.storeEvent('GET', progress(1));
    tick(2000);
    await view.storeEvent('other', progress(2));
    expect(store.stats().firstSeq).toBe(2);
    expect(store.checkResume(idle, 's')).toBeUndefined();
    expect(store.checkResume(idle, 'intruder')?.reason).toBe('other-session');
    expect(await replay(view, idle)).toEqual({ streamId: 'GET', ids: [], messages: [] });
    // New events on the idle stream are replayed from that cursor while all of them are retained.
    await view.storeEvent('GET', progress(3));
    expect((await replay(view, idle)).messages).toEqual([progress(3)]);
    tick(2000);
    await view.storeEvent('other', progress(4));
    // Seq 3 was dropped too: the idle cursor no longer proves continuity.
    expect(store.checkResume(idle, 's')?.reason).toBe('evicted');
  });

  it('forgets the longest-idle streams beyond maxIdleStreams', async () => {
    const { store, tick } = clocked({ retainMs: 1000, maxIdleStreams: 2 });
    const view = store.forSession('s');
    const cursors = [await view.storeEvent('A', {}), await view.storeEvent('B', {}), await view.storeEvent('C', {})];
    tick(2000);
    await view.storeEvent('D', {});
    expect(cursors.map((c) => store.checkResume(c, 's')?.reason)).toEqual(['evicted', undefined, undefined]);
  });
});

describe('refusals', () => {
  it('refuses a foreign epoch, another session, a malformed or a never-issued cursor', async () => {
    const store = createEpochEventStore();
    const mine = store.forSession('mine');
    const cursor = await mine.storeEvent('A', progress(1));
    const restarted = createEpochEventStore();
    await restarted.forSession('mine').storeEvent('A', progress(1));
    const sameNumber = cursor.replace(store.epoch, restarted.epoch);
    expect(restarted.checkResume(cursor, 'mine')).toEqual({
      reason: 'foreign-epoch',
      cursor,
      epoch: restarted.epoch,
      message: `Resume refused (foreign-epoch): Last-Event-ID ${cursor} was issued before a server restart or by another server; re-initialize the session.`,
    });
    expect(restarted.checkResume(sameNumber, 'mine')).toBeUndefined();
    expect(store.checkResume(cursor, 'yours')?.reason).toBe('other-session');
    expect(await store.forSession('yours').getStreamIdForEventId(cursor)).toBeUndefined();
    for (const bad of [
      '',
      '5',
      'abc',
      `${store.epoch}:`,
      `${store.epoch}:x`,
      `a:b:1`,
      `${store.epoch}: 1`,
      `${store.epoch}:01`,
      'x:0',
    ])
      expect(store.checkResume(bad, 'mine')?.reason, bad).toBe('malformed');
    expect(store.checkResume(`${store.epoch}:2`, 'mine')?.reason).toBe('unknown');
    await expect(replay(store.forSession('yours'), cursor)).rejects.toThrow(/other-session/);
    await expect(replay(mine, `${store.epoch}:99`)).rejects.toThrow(/unknown/);
  });
});

describe('the size an event counts', () => {
  it("is its JSON text's length, estimated without building it (numbers count 8), within 15%", () => {
    const messages: unknown[] = [
      {},
      progress(12345),
      { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'x'.repeat(100_000) }], isError: false } },
      { jsonrpc: '2.0', id: 'a', error: { code: -32000, message: 'nope', data: null } },
      [1, 'two', [true]],
    ];
    for (const message of messages) {
      const exact = JSON.stringify(message).length;
      expect(Math.abs(estimateJsonSize(message) - exact), JSON.stringify(message).slice(0, 80)).toBeLessThanOrEqual(
        Math.max(12, exact * 0.15),
      );
    }
  });
});
