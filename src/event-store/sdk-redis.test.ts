// Runs in Node (vitest) against a real redis-server it starts: the Redis store in a real SDK 1.32 server restarted
// mid-stream (a new process: new SDK transports, a new store object over the same namespace, the session restored);
// the real SDK client's resume continues with zero loss and zero duplicates. A missing redis-server fails the test.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../e2e/lab/redis-server';
import { createRedisEventStore } from './redis';
import { startGuardedApp } from './sdk-app.fixture';
import { callThrough, resumes, startProxy } from './sdk-client.fixture';

let server: RedisServer;
const clients: Redis[] = [];

/** A new connection, as a new process opens its own. */
function connect(): Redis {
  const client = new Redis(server.url, { maxRetriesPerRequest: 1 });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  server = await startRedisServer();
}, 20_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.quit()));
  await server?.stop();
});

describe('the Redis store in a real SDK 1.32 server', () => {
  it('continues the stream after a server restart mid-stream: zero loss, zero duplicates, the same bytes', async () => {
    const namespace = 'restart';
    const before = createRedisEventStore({ redis: connect(), namespace });
    const app = await startGuardedApp({ store: before });
    // The cut is when the process goes: it finishes the running call into Redis (a drain), then a new one serves.
    const restarted = () => void app.restart(createRedisEventStore({ redis: connect(), namespace }), { drain: true });
    const proxied = await startProxy(app.url, ['cut-at-boundary:3'], restarted);
    try {
      const call = { count: 10, delayMs: 30, bytes: 256 * 1024 };
      const run = await callThrough(proxied, call);
      expect(run.faults.map((f) => f.action)).toContain('cut');
      expect(run.progress).toEqual(Array.from({ length: call.count }, (_, i) => i + 1));
      expect(run.result).toBe(app.produced[0]);
      expect(app.produced).toHaveLength(1);
      const [resume, ...more] = resumes(run.connections);
      expect(more).toEqual([]);
      expect(resume?.status).toBe(200);
      const epoch = await before.epoch();
      const cursor = resume?.requestHeaders.find((h) => h.name.toLowerCase() === 'last-event-id')?.value;
      expect(cursor?.startsWith(`${epoch}:`)).toBe(true);
      expect(run.findings.map((f) => `${f.severity} ${f.rule}`)).toEqual([]);
    } finally {
      await proxied.proxy.close();
      await app.close();
    }
  });
});
