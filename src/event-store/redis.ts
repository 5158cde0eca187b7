// Runs in Node (or any runtime with a Redis client), entry `mcp-stream-inspector/event-store/redis`: the epoch event
// store on Redis Streams. Imports no Redis client and no SDK: the app passes its own client (ioredis fits).
import { newEpoch, parseCursor } from './ids';
import { refusal, ResumeRefusedError } from './refusal';
import { REPLAY_SCRIPT, RESOLVE_SCRIPT, STORE_SCRIPT } from './redis-scripts';
import { type RedisScriptClient, ScriptRunner } from './redis-runner';
import type { EventMessage, GuardedEventStore, Refusal, RefusalReason, SdkEventStore } from './types';

export type { RedisScriptClient } from './redis-runner';

/** Options of {@link createRedisEventStore}. */
export interface RedisEventStoreOptions {
  /** A connected client, e.g. `new Redis(url)` of ioredis (a Cluster works too: the keys share one hash tag). */
  redis: RedisScriptClient;
  /**
   * The log's name: every process and replica of one server gives the same, and they share one epoch and one seq.
   * Keys are `{<namespace>}:meta`, `:log`, `:tails`, `:clock`. Default `mcp-events`.
   */
  namespace?: string;
  /** How long an event stays resumable at least, in ms (trimmed once a second). Default 300 000 (5 minutes). */
  retainMs?: number;
  /** At most this many events (Redis stream MAXLEN). Default 100 000. */
  maxEvents?: number;
  /** How many streams' last seq to remember, so an idle stream's cursor still resumes. Default 10 000. */
  maxIdleStreams?: number;
  /**
   * `approximate` (default) trims with `~`: whole stream nodes, cheaper; retention may then keep a little more than
   * asked, never less. `exact` trims with `=`.
   */
  trim?: 'approximate' | 'exact';
}

/** Defaults of {@link RedisEventStoreOptions}. */
export const REDIS_STORE_DEFAULTS = {
  namespace: 'mcp-events',
  retainMs: 5 * 60_000,
  maxEvents: 100_000,
  maxIdleStreams: 10_000,
  trim: 'approximate',
} as const;

/** The Redis store: the epoch lives in Redis, so every process of the namespace issues and resumes the same ids. */
export interface RedisEventStore extends GuardedEventStore {
  readonly namespace: string;
  /**
   * The namespace's epoch, as Redis holds it: created by the first stored event (empty until then), new only if Redis
   * lost the namespace (a flush, a restart without persistence): then every older cursor is foreign.
   */
  epoch(): Promise<string>;
  /** Undefined when the cursor can be resumed exactly by this session; otherwise why not. */
  checkResume(lastEventId: string, sessionId: string): Promise<Refusal | undefined>;
}

/** Entries read per replay round trip. */
const BATCH = 512;
const REASONS: readonly string[] = ['foreign-epoch', 'evicted', 'other-session', 'malformed', 'unknown'];
const isReason = (value: unknown): value is RefusalReason => typeof value === 'string' && REASONS.includes(value);

function text(reply: unknown[], index: number): string {
  const value = reply[index];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw new Error(`event store: unexpected Redis reply ${JSON.stringify(reply).slice(0, 200)}`);
}

function list(reply: unknown): unknown[] {
  if (!Array.isArray(reply)) throw new Error(`event store: unexpected Redis reply ${String(reply)}`);
  return reply;
}

class RedisStore implements RedisEventStore {
  readonly namespace: string;
  private readonly keys: string[];
  private readonly candidate = newEpoch();
  private readonly scripts: ScriptRunner;
  private readonly limits: string[];

  constructor(options: RedisEventStoreOptions) {
    const settings = { ...REDIS_STORE_DEFAULTS, ...definedOnly(options) };
    this.namespace = settings.namespace;
    const tag = `{${settings.namespace}}`;
    this.keys = [`${tag}:meta`, `${tag}:log`, `${tag}:tails`, `${tag}:clock`];
    this.scripts = new ScriptRunner(options.redis);
    this.limits = [
      String(settings.retainMs),
      String(settings.maxEvents),
      String(settings.maxIdleStreams),
      settings.trim === 'exact' ? '=' : '~',
    ];
  }

  forSession(sessionId: string): SdkEventStore {
    return {
      storeEvent: async (streamId, message) => {
        const reply = list(
          await this.scripts.run(STORE_SCRIPT, this.keys, [
            this.candidate,
            sessionId,
            streamId,
            JSON.stringify(message),
            ...this.limits,
          ]),
        );
        return `${text(reply, 0)}:${text(reply, 1)}`;
      },
      getStreamIdForEventId: async (eventId) => {
        const found = await this.resolve(eventId, sessionId);
        return 'reason' in found ? undefined : found.streamId;
      },
      replayEventsAfter: (lastEventId, { send }) => this.replay(lastEventId, sessionId, send),
    };
  }

  async epoch(): Promise<string> {
    // A cursor that cannot exist (seq 0 is never issued) asks only for the epoch, creating nothing.
    const reply = list(await this.scripts.run(RESOLVE_SCRIPT, this.keys.slice(0, 3), ['', '0', '']));
    return text(reply, 1);
  }

  async checkResume(lastEventId: string, sessionId: string): Promise<Refusal | undefined> {
    const found = await this.resolve(lastEventId, sessionId);
    return 'reason' in found ? found : undefined;
  }

  private async resolve(cursor: string, sessionId: string): Promise<Refusal | { streamId: string }> {
    const parsed = parseCursor(cursor);
    if (!parsed) return refusal('malformed', cursor, await this.epoch());
    const reply = list(
      await this.scripts.run(RESOLVE_SCRIPT, this.keys.slice(0, 3), [parsed.epoch, String(parsed.seq), sessionId]),
    );
    const result = text(reply, 0);
    if (result === 'ok') return { streamId: text(reply, 2) };
    return refusal(isReason(result) ? result : 'unknown', cursor, text(reply, 1));
  }

  private async replay(
    cursor: string,
    sessionId: string,
    send: (eventId: string, message: EventMessage) => Promise<void>,
  ): Promise<string> {
    const parsed = parseCursor(cursor);
    if (!parsed) throw new ResumeRefusedError(refusal('malformed', cursor, await this.epoch()));
    let position = String(parsed.seq);
    let streamId = '';
    for (let first = true; ; first = false) {
      const args = [parsed.epoch, position, sessionId, streamId, String(BATCH), first ? '1' : '0'];
      const reply = list(await this.scripts.run(REPLAY_SCRIPT, this.keys.slice(0, 3), args));
      const result = text(reply, 0);
      if (result !== 'ok') {
        throw new ResumeRefusedError(refusal(isReason(result) ? result : 'unknown', cursor, text(reply, 1)));
      }
      const epoch = text(reply, 1);
      streamId = text(reply, 2);
      position = text(reply, 3);
      for (let i = 5; i + 1 < reply.length; i += 2) {
        await send(`${epoch}:${text(reply, i)}`, JSON.parse(text(reply, i + 1)) as EventMessage);
      }
      // Done once a batch came back short: events stored meanwhile were read by the next batch before that.
      if (text(reply, 4) === '1') return streamId;
    }
  }
}

/** The options without keys set to undefined, so they do not hide the defaults. */
function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * The epoch event store on Redis Streams: ids `<epoch>:<seq>` from one ordered log per namespace (one seq counter
 * and one stream, appended by one atomic script), so a resume survives a server restart and reaches any replica;
 * the epoch is the namespace's, kept in Redis. Same refusals as the memory store.
 *
 * ```ts
 * import Redis from 'ioredis';
 * const store = createRedisEventStore({ redis: new Redis(process.env.REDIS_URL), namespace: 'my-mcp-server' });
 * ```
 */
export function createRedisEventStore(options: RedisEventStoreOptions): RedisEventStore {
  return new RedisStore(options);
}
