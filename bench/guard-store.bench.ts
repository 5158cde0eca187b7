// Runs in Node (`npm run bench guard-store`): the server event store's throughput, memory store against the SDK's own
// example InMemoryEventStore, and the Redis store on a real redis-server; not shipped, not a test.
/*
 * How to read it
 * - One round = one fresh store per kind: a session with 4 streams stores N progress notifications round-robin
 *   (plus each stream's priming `{}` first), awaiting each storeEvent as the SDK transport does; then each stream
 *   is replayed from its priming event (every event of the stream after it), as a resume after a cut right at
 *   the start would. Both stores must replay the same events in the same order; the run throws otherwise.
 * - store/s = events stored per second of CPU time (user + system of this process, so other load on the machine
 *   does not count); replay/s = events the resumes ask for (every event after each cursor) per second of CPU time. Rounds alternate the two memory stores,
 *   with a GC before each timed phase; the medians of the rounds are printed.
 * - ratio = ours / SDK example, for storing and for replaying; memory-ratio = the lower of the two. The example's
 *   replay sorts its whole map on every resume, so the replay ratio is large; storing is the close contest.
 * - Redis: the same workload (fewer events) against a redis-server this bench starts and stops; wall time, since
 *   the work is in the server. Recorded only, not gated.
 */
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { Redis } from 'ioredis';
import { startRedisServer } from '../e2e/lab/redis-server';
import { createEpochEventStore } from '../src/event-store/memory';
import { createRedisEventStore } from '../src/event-store/redis';
import type { EventMessage } from '../src/event-store/types';

/** The SDK-facing methods both memory stores share. */
interface Store {
  storeEvent(streamId: string, message: EventMessage): Promise<string>;
  replayEventsAfter(
    lastEventId: string,
    options: { send: (eventId: string, message: EventMessage) => Promise<void> },
  ): Promise<string>;
}

interface Phase {
  storePerS: number;
  replayPerS: number;
  /** Every replayed message, in the order sent: both stores must send the same ones. */
  replayed: EventMessage[];
}

const progressOf = (message: EventMessage): number =>
  'params' in message ? ((message.params as { progress?: number }).progress ?? 0) : 0;

/** The messages as one comparable text, in progress order. */
const sorted = (replayed: EventMessage[]): string =>
  JSON.stringify([...replayed].sort((a, b) => progressOf(a) - progressOf(b)));

/** Each stream's replay ascends (streams are replayed one after the other, so progress restarts per stream). */
function inOrder(replayed: EventMessage[]): boolean {
  let restarts = 0;
  for (let i = 1; i < replayed.length; i++) {
    const [before, after] = [replayed[i - 1], replayed[i]];
    if (before && after && progressOf(after) <= progressOf(before)) restarts++;
  }
  return restarts === STREAMS.length - 1;
}

const STREAMS = ['s0', 's1', 's2', 's3'];
const MEMORY_EVENTS = 20_000;
const REDIS_EVENTS = 4_000;
const ROUNDS = 9;

const collectGarbage: () => void = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const wallMs = (): number => performance.now();

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function messages(count: number): EventMessage[] {
  return Array.from({ length: count }, (_, n) => ({
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: { progressToken: 'req-7', progress: n + 1, total: count, message: `step ${n + 1} of the export` },
  }));
}

async function run(store: Store, events: EventMessage[], clock: () => number): Promise<Phase> {
  collectGarbage();
  let t0 = clock();
  const cursors: string[] = [];
  for (const stream of STREAMS) cursors.push(await store.storeEvent(stream, {}));
  for (const [n, message] of events.entries()) await store.storeEvent(STREAMS[n % STREAMS.length] ?? 's0', message);
  const storeMs = clock() - t0;
  collectGarbage();
  const replayed: EventMessage[] = [];
  t0 = clock();
  for (const cursor of cursors) {
    await store.replayEventsAfter(cursor, { send: async (_id, message) => void replayed.push(message) });
  }
  const replayMs = clock() - t0;
  const stored = events.length + STREAMS.length;
  return {
    storePerS: stored / (storeMs / 1000),
    // Per event the resumes ask for (all after each cursor), whatever a store actually sent.
    replayPerS: events.length / (replayMs / 1000),
    replayed,
  };
}

const format = (n: number): string => Math.round(n).toLocaleString('en-US').replace(/,/g, ' ');

async function memoryRounds(): Promise<{ ours: Phase[]; sdk: Phase[]; shortfall: number[] }> {
  const events = messages(MEMORY_EVENTS);
  // A warm-up round each, untimed, so both run optimized code.
  await run(createEpochEventStore().forSession('bench'), events, cpuMs);
  await run(new InMemoryEventStore(), events, cpuMs);
  const ours: Phase[] = [];
  const sdk: Phase[] = [];
  const shortfall: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const a = await run(createEpochEventStore().forSession('bench'), events, cpuMs);
    const b = await run(new InMemoryEventStore(), events, cpuMs);
    // Ours must replay every event after each cursor, in order. The example is not held to it: it sorts ids
    // `<stream>_<ms>_<random>`, so events of the cursor's millisecond land on either side of it (some are skipped)
    // and a millisecond's events come back in random order. Its shortfall is printed.
    if (a.replayed.length !== events.length || sorted(a.replayed) !== sorted(events) || !inOrder(a.replayed))
      throw new Error('the epoch store did not replay every event after its cursors, in order');
    ours.push(a);
    sdk.push(b);
    shortfall.push(events.length - b.replayed.length);
  }
  return { ours, sdk, shortfall };
}

async function redisRounds(): Promise<Phase[]> {
  const server = await startRedisServer();
  const redis = new Redis(server.url);
  try {
    const events = messages(REDIS_EVENTS);
    const phases: Phase[] = [];
    for (let round = 0; round < 3; round++) {
      const store = createRedisEventStore({ redis, namespace: `bench-${round}` });
      phases.push(await run(store.forSession('bench'), events, wallMs));
    }
    return phases;
  } finally {
    await redis.quit();
    await server.stop();
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const { ours, sdk, shortfall } = await memoryRounds();
  const redis = await redisRounds();
  const row = (name: string, phases: Phase[]) => {
    const store = median(phases.map((p) => p.storePerS));
    const replay = median(phases.map((p) => p.replayPerS));
    process.stdout.write(`${name.padEnd(28)} ${format(store).padStart(12)} ${format(replay).padStart(14)}\n`);
    return { store, replay };
  };
  process.stdout.write(
    `${MEMORY_EVENTS} events (${REDIS_EVENTS} on Redis) over ${STREAMS.length} streams, ${ROUNDS} rounds, medians\n\n`,
  );
  process.stdout.write(`${'store'.padEnd(28)} ${'stored/s'.padStart(12)} ${'replayed/s'.padStart(14)}\n`);
  const mine = row('epoch store (memory)', ours);
  const theirs = row('SDK example InMemoryEventStore', sdk);
  const onRedis = row('epoch store (Redis, wall)', redis);
  const storeRatio = mine.store / theirs.store;
  const replayRatio = mine.replay / theirs.replay;
  const ratio = Math.min(storeRatio, replayRatio);
  process.stdout.write(
    `\nratio ours/example: store ${storeRatio.toFixed(2)}x, replay ${replayRatio.toFixed(2)}x\n` +
      `the example's replays missed ${median(shortfall)} of ${MEMORY_EVENTS} events (median; ids of one millisecond sort at random)\n` +
      `${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  process.stdout.write(
    `BENCH guard-store memory-ratio=${ratio.toFixed(2)} redis-store-per-s=${Math.round(onRedis.store)} ` +
      `redis-replay-per-s=${Math.round(onRedis.replay)} target=>=0.9 ${ratio >= 0.9 ? 'PASS' : 'FAIL'}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
