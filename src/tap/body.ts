// Page MAIN world: records response bodies without changing what the page reads.
//
// Event streams: the page's Response keeps its identity (status, headers, url, type, redirected, instanceof); only
// its body (as Response.prototype's members show it, see BodyTap) is swapped for a pass-through byte stream that pulls one chunk from the network body each time the page
// asks for one, hands the page the same bytes and keeps a copy. We do not use response.clone() here: a clone tees
// the body, so the tap's branch would be read as fast as the network delivers while the page's branch buffers
// (double memory, and the page loses backpressure on long-lived streams). Pulling on demand keeps the page's
// backpressure and chunk timing, and cancelling the page's stream cancels the network body as without the tap.
//
// Small JSON answers (<= 1 MiB) are read from a clone instead: the page may never read them, and the rules need them.
import type { ConnectionTap } from './connection';
import { MAX_JSON_BODY, errorText, isAbortError } from './classify';
import type { Disguise } from './disguise';
import { guarded } from './guard';
import { apply, bare, defineProperty, getOwnPropertyDescriptor } from './intrinsics';
import type { Natives } from './natives';

type ReadMethod = 'arrayBuffer' | 'blob' | 'bytes' | 'formData' | 'json' | 'text';
const READ_METHODS: readonly ReadMethod[] = ['arrayBuffer', 'blob', 'bytes', 'formData', 'json', 'text'];

type Method = (this: Response, ...args: unknown[]) => unknown;

/** A tapped event-stream Response as the page sees it: its body is `stream`, a pass-through of the network body. */
interface TappedBody {
  readonly response: Response;
  readonly stream: ReadableStream<Uint8Array>;
  readonly contentType: string;
  readonly conn: ConnectionTap;
  /** The stream's "disturbed" flag, which no API exposes: set on the first pull or a cancel. */
  used: boolean;
  /** How the pass-through failed, once it did. */
  failure?: { error: unknown };
  /** Set when a read method handed the body to the native code: from then on every member is the native one. */
  native: boolean;
}

/**
 * Response.prototype's body members, replaced once at document_start: for a tapped Response they act on its
 * pass-through, for any other they call the native member. Living on the prototype (not on each Response) means a
 * page wrapper of `Response.prototype.text` installed later wraps these and receives the page's own Response, and
 * a tapped Response has no own properties. A read method on an untouched body is the native method on the page's
 * Response (see read); on a body the page already read or locked through the pass-through, it is the native method
 * on a probe Response in the same state, which fails with the browser's own error and message.
 */
export class BodyTap {
  private readonly tapped = new WeakMap<Response, TappedBody>();
  private readonly weakGet: (map: WeakMap<Response, TappedBody>, key: Response) => TappedBody | undefined;
  private readonly weakSet: (map: WeakMap<Response, TappedBody>, key: Response, value: TappedBody) => unknown;
  private readonly natives: Natives;
  private readonly disguise: Disguise;
  /** The native `bodyUsed` getter. */
  private usedGet: Method | undefined;
  readonly locked: (stream: ReadableStream<Uint8Array>) => boolean;

  constructor(natives: Natives, disguise: Disguise) {
    this.natives = natives;
    this.disguise = disguise;
    const mapGet = WeakMap.prototype.get as (this: WeakMap<Response, TappedBody>, key: Response) => unknown;
    const mapSet = WeakMap.prototype.set as (
      this: WeakMap<Response, TappedBody>,
      key: Response,
      value: TappedBody,
    ) => unknown;
    this.weakGet = (map, key) => apply(mapGet, map, [key]) as TappedBody | undefined;
    this.weakSet = (map, key, value) => apply(mapSet, map, [key, value]);
    const lockedGet = getOwnPropertyDescriptor(natives.ReadableStream.prototype, 'locked')?.get;
    this.locked = (stream) => (lockedGet ? (apply(lockedGet, stream, []) as boolean) : false);
    this.install();
  }

  /** The state of `response` when the tap swapped its body (a value the page passes as `this` may be anything). */
  stateOf(self: unknown): TappedBody | undefined {
    if (typeof self !== 'object' || self === null) return undefined;
    const state = this.weakGet(this.tapped, self as Response);
    return state && !state.native ? state : undefined;
  }

  private install(): void {
    const proto = this.natives.Response.prototype;
    const replace = (name: string, make: (native: Method, tap: BodyTap) => Method, kind: 'value' | 'get'): void => {
      const descriptor = getOwnPropertyDescriptor(proto, name);
      const native = descriptor?.[kind] as Method | undefined;
      if (!descriptor || typeof native !== 'function') return;
      if (name === 'bodyUsed') this.usedGet = native;
      const replacement = make(native, this);
      this.disguise(replacement, native);
      defineProperty(proto, name, bare({ ...descriptor, [kind]: replacement }));
    };
    replace(
      'body',
      (native, tap) =>
        function (this: Response): unknown {
          const state = tap.stateOf(this);
          return state ? state.stream : apply(native, this, []);
        },
      'get',
    );
    replace(
      'bodyUsed',
      (native, tap) =>
        function (this: Response): unknown {
          const state = tap.stateOf(this);
          if (!state) return apply(native, this, []);
          // Browsers differ (Firefox reports a locked, unread body as used): the native getter on a probe decides.
          return state.used || tap.locked(state.stream) ? apply(native, tap.probe(state), []) : false;
        },
      'get',
    );
    replace(
      'clone',
      (native, tap) =>
        function clone(this: Response, ...args: unknown[]): unknown {
          const state = tap.stateOf(this);
          return state ? tap.clone(state, native) : apply(native, this, args);
        },
      'value',
    );
    for (const method of READ_METHODS) {
      replace(
        method,
        (native, tap) =>
          function (this: Response, ...args: unknown[]): unknown {
            const state = tap.stateOf(this);
            return state ? tap.read(state, native, args) : apply(native, this, args);
          },
        'value',
      );
    }
  }

  /** Follows `response`: its body becomes a recording pass-through of the network body. */
  register(response: Response, conn: ConnectionTap): void {
    const { natives } = this;
    const original = natives.responseBody(response);
    if (!original) {
      conn.end('complete');
      return;
    }
    conn.openBranch();
    const contentType = natives.headersGet(natives.responseHeaders(response), 'content-type') ?? '';
    const state: TappedBody = {
      response,
      stream: passThroughOf(response, original, conn, natives, {
        disturbed: () => {
          state.used = true;
        },
        failed: (error) => {
          state.failure = { error };
        },
      }),
      contentType,
      conn,
      used: false,
      native: false,
    };
    this.weakSet(this.tapped, response, state);
  }

  /**
   * A Response whose body is in the state of `state`'s (locked, disturbed): the native method called on it fails
   * with the native error and message for that state, in every browser.
   */
  probe(state: TappedBody): Response {
    const { natives } = this;
    const failure = state.failure;
    // Errored as the pass-through is (Firefox rejects a read of an errored body with its error, not "consumed").
    const source = failure
      ? new natives.ReadableStream<Uint8Array>(
          bare({ start: (c: ReadableStreamDefaultController) => c.error(failure.error) }),
        )
      : '-';
    const probe = new natives.Response(source);
    const body = natives.responseBody(probe) as ReadableStream<Uint8Array>;
    if (this.locked(state.stream)) {
      const reader = natives.getReader(body);
      if (state.used) void settled(natives.read(reader));
    } else if (state.used) {
      void settled(natives.cancelStream(body, undefined));
    }
    return probe;
  }

  /** The native member on a probe; what it did to the probe's body (Firefox marks a locked body used) is kept. */
  private onProbe(state: TappedBody, native: Method): unknown {
    // A failed body the page holds locked is in the state of the network body under the tap's reader (locked,
    // disturbed, errored): the native member on the page's Response sees what the browser knows of the failure
    // (Firefox answers an aborted fetch's body with AbortError, whatever the stream's state).
    const probe = state.failure && this.locked(state.stream) ? state.response : this.probe(state);
    try {
      return apply(native, probe, []);
    } finally {
      if (this.usedGet && apply(this.usedGet, probe, [])) state.used = true;
    }
  }

  clone(state: TappedBody, native: Method): Response {
    if (state.used || this.locked(state.stream)) return this.onProbe(state, native) as Response;
    const copy = this.natives.responseClone(state.response);
    this.register(copy, state.conn);
    return copy;
  }

  /**
   * A read method on a body the page has not touched: the native method reads the page's own Response (its network
   * body), so values, parsing, errors and `bodyUsed` are the browser's own (Chromium alone turns a network failure
   * into "Failed to fetch" there, but not an abort, and parses JSON without the message a buffered body gets). The
   * record reads a clone: a read method drains the body at once anyway, so the tee costs no backpressure.
   */
  read(state: TappedBody, native: Method, args: unknown[]): unknown {
    const { natives } = this;
    if (state.used || this.locked(state.stream)) return this.onProbe(state, native);
    state.native = true;
    const copy = natives.responseClone(state.response);
    const body = natives.responseBody(copy);
    if (body) void readBody(natives.getReader(body), state.conn, natives, Infinity);
    return apply(native, state.response, args);
  }
}

/** Waits for `promise` and swallows its rejection: a probe's failed read must not reach the page as unhandled. */
async function settled(promise: Promise<unknown>): Promise<void> {
  try {
    await promise;
  } catch {
    // The probe exists to fail like the page's body; nothing here is the page's.
  }
}

/** The pass-through: one network chunk per pull, copied into the record, the same chunk handed to the page. */
function passThroughOf(
  response: Response,
  original: ReadableStream<Uint8Array>,
  conn: ConnectionTap,
  natives: Natives,
  on: { disturbed: () => void; failed: (error: unknown) => void },
): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  let offset = 0;
  // The network body as the page would see it now (a clone() before the first read replaces it with a tee branch).
  const source = (): ReadableStreamDefaultReader<Uint8Array> => {
    if (!reader) {
      const body = natives.responseBody(response);
      if (!body) throw new TypeError('response body is gone');
      reader = natives.getReader(body);
    }
    return reader;
  };
  const underlying: UnderlyingByteSource = bare({
    type: 'bytes',
    async pull(controller) {
      // Called within the page's first read (the stream has started by the time the page holds the Response).
      on.disturbed();
      for (;;) {
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await natives.read(source());
        } catch (error) {
          guarded(() => conn.end(isAbortError(error) ? 'aborted' : 'network-error', errorText(error)));
          on.failed(error);
          controller.error(error);
          return;
        }
        if (result.done) {
          guarded(() => conn.end('complete'));
          controller.close();
          controller.byobRequest?.respond(0);
          return;
        }
        const chunk = result.value;
        const length = natives.byteLength(chunk);
        if (length === 0) continue;
        // The record is copied now (offer), since enqueue moves the chunk's buffer: the page gets the very buffer
        // the network gave, as without the tap.
        const at = offset;
        guarded(() => conn.offer(at, chunk));
        offset += length;
        // A body's chunks are never shared memory.
        controller.enqueue(chunk as Uint8Array<ArrayBuffer>);
        return;
      }
    },
    cancel(reason) {
      on.disturbed();
      guarded(() => conn.branchCancelled());
      if (reader) return natives.cancelReader(reader, reason);
      return natives.cancelStream(natives.responseBody(response) ?? original, reason);
    },
  });
  return new natives.ReadableStream(underlying);
}

/** Reads up to MAX_JSON_BODY bytes of a clone of `response`; the page's own body is left untouched. */
export function tapSmallBody(response: Response, conn: ConnectionTap, natives: Natives): void {
  const length = Number(natives.headersGet(natives.responseHeaders(response), 'content-length') ?? '0');
  if (!natives.responseBody(response) || length > MAX_JSON_BODY) {
    conn.end('complete', length > MAX_JSON_BODY ? 'body not recorded: larger than 1 MiB' : undefined);
    return;
  }
  const body = natives.responseBody(natives.responseClone(response));
  if (!body) {
    conn.end('complete');
    return;
  }
  void readBody(natives.getReader(body), conn, natives, MAX_JSON_BODY);
}

// async/await, not .then(): awaiting a native promise cannot be intercepted by a page that replaced Promise.prototype.then.
/** Records a body the page does not read through the tap, up to `limit` bytes. */
async function readBody(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  conn: ConnectionTap,
  natives: Natives,
  limit: number,
): Promise<void> {
  let offset = 0;
  try {
    for (;;) {
      const result = await natives.read(reader);
      if (result.done) return conn.end('complete');
      if (offset + natives.byteLength(result.value) > limit) {
        conn.end('complete', 'body recorded up to 1 MiB only');
        await natives.cancelReader(reader, undefined);
        return;
      }
      conn.offer(offset, result.value);
      offset += natives.byteLength(result.value);
    }
  } catch (error) {
    conn.end(isAbortError(error) ? 'aborted' : 'network-error', errorText(error));
  }
}
