// Runs in Node (or any runtime with a Redis client and WHATWG crypto): runs the store's Lua scripts by SHA1, sending
// a script's text only when the server does not hold it (first use, or after a Redis restart flushed its cache).

/** What the store needs of a Redis client: scripts by SHA1, with EVAL when the server lost its script cache. */
export interface RedisScriptClient {
  evalsha(sha1: string, numkeys: number, ...args: (string | number)[]): Promise<unknown>;
  eval(script: string, numkeys: number, ...args: (string | number)[]): Promise<unknown>;
}

const utf8 = new TextEncoder();

async function sha1(script: string): Promise<string> {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-1', utf8.encode(script)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Runs scripts on one client, remembering each script's SHA1. */
export class ScriptRunner {
  private readonly shas = new Map<string, Promise<string>>();

  constructor(private readonly redis: RedisScriptClient) {}

  async run(script: string, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    let sha = this.shas.get(script);
    if (!sha) {
      sha = sha1(script);
      this.shas.set(script, sha);
    }
    try {
      return await this.redis.evalsha(await sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      // EVAL runs it and caches it under the same SHA1 for the next call.
      return this.redis.eval(script, keys.length, ...keys, ...args);
    }
  }
}
