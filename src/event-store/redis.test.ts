// Runs in Node (vitest) against a real redis-server it starts (e2e/lab/redis-server.ts): the Redis store's ids,
// replay across store objects (processes), retention and refusals. A missing redis-server fails, never skips.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../e2e/lab/redis-server';
import { detectScheme } from '../core/ids/scheme';
import { ResumeRefusedError } from './refusal';
import { createRedisEventStore, type RedisEventStoreOptions } from './redis';
import type { EventMessage, SdkEventStore } from './types';

let server: RedisServer;
let redis: Redis;
let namespaces = 0;

beforeAll(async () => {
  server = await startRedisServer();
  redis = new Redis(server.url, { lazyConnect: false, maxRetriesPerRequest: 1 });
}, 20_000);

afterAll(async () => {
  await redis?.quit();
  await server?.stop();
});

/** A store over a namespace no other test uses; `again()` is another process over the same one. */
function fresh(options: Partial<RedisEventStoreOptions> = {}) {
  const namespace = `test-${++namespaces}`;
  const open = () => createRedisEventStore({ redis, namespace, ...options });
  return { store: open(), again: open, namespace };
}

const progress = (n: number): EventMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 1, progress: n },
});

async function replay(view: SdkEventStore, cursor: string) {
  const sent: { id: string; message: EventMessage }[] = [];
  const streamId = await view.replayEventsAfter(cursor, {
    send: async (id, message) => void sent.push({ id, message }),
  });
  return { streamId, ids: sent.map((s) => s.id), messages: sent.map((s) => s.message) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the Redis store', () => {
  it('issues <epoch>:<seq> from one counter per namespace, shared by every store object (process)', async () => {
    const { store, again } = fresh();
    expect(await store.epoch()).toBe('');
    const a = store.forSession('a');
    const b = again().forSession('b');
    const ids = [await a.storeEvent('s1', {}), await b.storeEvent('s1', progress(1)), await a.storeEvent('s1', {})];
    const epoch = await store.epoch();
    expect(epoch).toMatch(/^[0-9a-f]{16}$/);
    expect(await again().epoch()).toBe(epoch);
    expect(ids).toEqual([1, 2, 3].map((n) => `${epoch}:${n}`));
    expect(detectScheme(ids)).toBe('epoch-seq');
  });

  it("replays exactly the cursor's stream after it, from another store object, across batches", async () => {
    const { store, again } = fresh();
    const view = store.forSession('s');
    const cursor = await view.storeEvent('A', {});
    const expected: EventMessage[] = [];
    for (let n = 1; n <= 1200; n++) {
      await view.storeEvent('B', progress(-n));
      if (n % 2 === 0) {
        await view.storeEvent('A', progress(n));
        expected.push(progress(n));
      }
    }
    await store.forSession('other').storeEvent('A', progress(0));
    const restarted = again().forSession('s');
    expect(await restarted.getStreamIdForEventId(cursor)).toBe('A');
    const replayed = await replay(restarted, cursor);
    expect(replayed.streamId).toBe('A');
    expect(replayed.messages).toEqual(expected);
    expect(new Set(replayed.ids).size).toBe(600);
  });

  it('refuses other sessions, malformed, never-issued and foreign-epoch cursors', async () => {
    const { store } = fresh();
    const cursor = await store.forSession('mine').storeEvent('A', progress(1));
    const epoch = await store.epoch();
    expect(await store.checkResume(cursor, 'mine')).toBeUndefined();
    expect(await store.checkResume(cursor, 'yours')).toMatchObject({ reason: 'other-session', epoch, cursor });
    expect(await store.checkResume('garbage', 'mine')).toMatchObject({ reason: 'malformed', epoch });
    expect(await store.checkResume(`${epoch}:9`, 'mine')).toMatchObject({ reason: 'unknown' });
    const other = fresh().store;
    await other.forSession('mine').storeEvent('A', {});
    expect(await other.checkResume(cursor, 'mine')).toMatchObject({ reason: 'foreign-epoch' });
    expect(await store.forSession('yours').getStreamIdForEventId(cursor)).toBeUndefined();
    await expect(replay(store.forSession('yours'), cursor)).rejects.toBeInstanceOf(ResumeRefusedError);
  });

  it('refuses every old cursor as foreign once Redis lost the namespace: the new epoch never reuses an id', async () => {
    const { store, again, namespace } = fresh();
    const view = store.forSession('s');
    const cursor = await view.storeEvent('A', {});
    await view.storeEvent('A', progress(1));
    await redis.del(`{${namespace}}:meta`, `{${namespace}}:log`, `{${namespace}}:tails`, `{${namespace}}:clock`);
    expect(await store.checkResume(cursor, 's')).toMatchObject({ reason: 'foreign-epoch', epoch: '' });
    const next = await again().forSession('s').storeEvent('A', {});
    expect(next.endsWith(':1')).toBe(true);
    expect(next.split(':')[0]).not.toBe(cursor.split(':')[0]);
    expect(await store.checkResume(cursor, 's')).toMatchObject({ reason: 'foreign-epoch' });
    await expect(replay(view, cursor)).rejects.toThrow(/foreign-epoch/);
  });

  it('keeps at most maxEvents (one event one entry) and refuses what it trimmed as evicted', async () => {
    const { store } = fresh({ maxEvents: 3, trim: 'exact' });
    const view = store.forSession('s');
    const first = await view.storeEvent('A', progress(1));
    const big = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x'.repeat(1 << 20) }] } };
    const second = await view.storeEvent('A', progress(2));
    await view.storeEvent('A', big);
    await view.storeEvent('A', progress(3));
    expect(await store.checkResume(first, 's')).toMatchObject({ reason: 'evicted' });
    expect(await view.getStreamIdForEventId(first)).toBeUndefined();
    await expect(replay(view, first)).rejects.toThrow(/evicted/);
    expect((await replay(view, second)).messages).toEqual([big, progress(3)]);
  });

  it('trims by the time window, still resuming an idle stream whose last event went', async () => {
    const { store } = fresh({ retainMs: 200, trim: 'exact' });
    const view = store.forSession('s');
    const busy = await view.storeEvent('A', progress(1));
    const idle = await view.storeEvent('GET', progress(2));
    await sleep(1100);
    await view.storeEvent('A', progress(3));
    await sleep(1100);
    await view.storeEvent('A', progress(4));
    expect(await store.checkResume(busy, 's')).toMatchObject({ reason: 'evicted' });
    expect(await store.checkResume(idle, 's')).toBeUndefined();
    expect(await store.checkResume(idle, 'intruder')).toMatchObject({ reason: 'other-session' });
    expect(await replay(view, idle)).toEqual({ streamId: 'GET', ids: [], messages: [] });
  });
});
