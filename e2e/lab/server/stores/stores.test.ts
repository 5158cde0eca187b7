// Runs in Node (vitest): the lab's event stores mint the advertised ids, replay after a cursor,
// evict, and misbehave exactly as their policies say.
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { EpochEventStore } from './epoch-store';
import { IntegerEventStore } from './integer-store';
import type { LabEventStore } from './lab-event-store';
import { RingBufferEventStore } from './ring-buffer-store';
import { SdkStyleEventStore } from './sdk-style-store';

const progress = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 1, progress: n },
});

async function replay(
  store: EventStore,
  cursor: string,
): Promise<{ stream: string; sent: Array<[string, JSONRPCMessage]> }> {
  const sent: Array<[string, JSONRPCMessage]> = [];
  const stream = await store.replayEventsAfter(cursor, { send: async (id, message) => void sent.push([id, message]) });
  return { stream, sent };
}

async function fill(store: LabEventStore, session: string, stream: string, count: number): Promise<string[]> {
  const view = store.forSession(session);
  const ids: string[] = [];
  for (let n = 1; n <= count; n++) ids.push(await view.storeEvent(stream, progress(n)));
  return ids;
}

describe('lab event stores', () => {
  it('mint ids in the SDK example format, integers from 1, and <epoch>:<seq>', async () => {
    const [sdk] = await fill(new SdkStyleEventStore(), 's', 'stream-a', 1);
    expect(sdk).toMatch(/^stream-a_\d{13}_[a-z0-9]{1,8}$/);
    expect(await fill(new IntegerEventStore(), 's', 'a', 3)).toEqual(['1', '2', '3']);
    expect(await fill(new EpochEventStore('4f2a9c'), 's', 'a', 2)).toEqual(['4f2a9c:1', '4f2a9c:2']);
  });

  it('replay only the events after the cursor on the cursor stream of the same session', async () => {
    const store = new IntegerEventStore();
    await fill(store, 's1', 'a', 2); // 1, 2
    await fill(store, 's1', 'b', 1); // 3
    await fill(store, 's2', 'a', 1); // 4: another session, same stream name
    await fill(store, 's1', 'a', 1); // 5
    const view = store.forSession('s1');
    expect(await view.getStreamIdForEventId?.('1')).toBe('a');
    const { stream, sent } = await replay(view, '1');
    expect(stream).toBe('a');
    expect(sent.map(([id]) => id)).toEqual(['2', '5']);
    expect(await store.forSession('s2').getStreamIdForEventId?.('1')).toBeUndefined();
  });

  it('reject a cursor they never issued by default (the SDK then answers 400)', async () => {
    const store = new EpochEventStore('aaaaaa');
    await fill(store, 's', 'a', 2);
    const view = store.forSession('s');
    expect(await view.getStreamIdForEventId?.('bbbbbb:2')).toBeUndefined();
    await expect(replay(view, 'bbbbbb:2')).rejects.toThrow(/unknown/);
  });

  it('clamp a foreign cursor to their own events from the first one when told to', async () => {
    const store = new EpochEventStore('bbbbbb', { onUnknownCursor: 'clamp' });
    await fill(store, 's', 'init', 2);
    const view = store.forSession('s');
    expect(await view.getStreamIdForEventId?.('aaaaaa:5')).toBe('init');
    const { sent } = await replay(view, 'aaaaaa:5');
    expect(sent.map(([id]) => id)).toEqual(['bbbbbb:1', 'bbbbbb:2']);
  });

  it('start a fresh stream with one new event for a foreign cursor when told to', async () => {
    const store = new EpochEventStore('bbbbbb', { onUnknownCursor: 'fresh' });
    await fill(store, 's', 'init', 2);
    const view = store.forSession('s');
    const streamId = await view.getStreamIdForEventId?.('aaaaaa:5');
    const { stream, sent } = await replay(view, 'aaaaaa:5');
    expect(stream).toBe(streamId);
    expect(sent.map(([id]) => id)).toEqual(['bbbbbb:3']);
    expect(sent[0]?.[1]).toMatchObject({ method: 'notifications/message' });
  });

  it('ring buffer: evicts the oldest events by slots and tells an evicted cursor from a foreign one', async () => {
    const store = new RingBufferEventStore({ slots: 3, slotBytes: 1000 });
    const ids = await fill(store, 's', 'a', 5);
    expect(ids).toEqual(['1', '2', '3', '4', '5']);
    expect(store.size).toBe(3);
    expect(store.has('2')).toBe(false);
    const view = store.forSession('s');
    expect(await view.getStreamIdForEventId?.('2')).toBe('a');
    await expect(replay(view, '2')).rejects.toThrow(/evicted/);
    expect((await replay(view, '3')).sent.map(([id]) => id)).toEqual(['4', '5']);
  });

  it('ring buffer: a big event takes several slots and pushes everything else out', async () => {
    const store = new RingBufferEventStore({ slots: 4, slotBytes: 100 });
    await fill(store, 's', 'a', 3);
    const big: JSONRPCMessage = { jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(1000) } };
    const bigId = await store.forSession('s').storeEvent('a', big);
    expect(store.size).toBe(1);
    expect(store.has(bigId)).toBe(true);
  });

  it('ring buffer with republish: re-sends what it still holds of the stream under new ids', async () => {
    const store = new RingBufferEventStore({ slots: 1, slotBytes: 10_000 }, { onEvictedCursor: 'republish' });
    const ids = await fill(store, 's', 'a', 3);
    const { stream, sent } = await replay(store.forSession('s'), ids[1] as string);
    expect(stream).toBe('a');
    expect(sent).toEqual([['4', progress(3)]]);
  });
});
