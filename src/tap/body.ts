// Page MAIN world: records response bodies without changing what the page reads.
//
// Event streams: the page's Response keeps its identity (status, headers, url, type, redirected, instanceof); only
// its body is swapped for a pass-through byte stream that pulls one chunk from the network body each time the page
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
import { apply, bare, defineProperties, defineProperty, hidden } from './intrinsics';
import type { Natives } from './natives';

type ReadMethod = 'arrayBuffer' | 'blob' | 'bytes' | 'formData' | 'json' | 'text';
const READ_METHODS: readonly ReadMethod[] = ['arrayBuffer', 'blob', 'bytes', 'formData', 'json', 'text'];

/** Swaps the body of `response` (an event stream the page will read) for a recording pass-through. */
export function tapEventStreamBody(
  response: Response,
  conn: ConnectionTap,
  natives: Natives,
  disguise: Disguise,
): void {
  const original = natives.responseBody(response);
  if (!original) {
    conn.end('complete');
    return;
  }
  conn.openBranch();
  const contentType = natives.headersGet(natives.responseHeaders(response), 'content-type') ?? '';
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
      for (;;) {
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await natives.read(source());
        } catch (error) {
          guarded(() => conn.end(isAbortError(error) ? 'aborted' : 'network-error', errorText(error)));
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
      guarded(() => conn.branchCancelled());
      if (reader) return natives.cancelReader(reader, reason);
      return natives.cancelStream(natives.responseBody(response) ?? original, reason);
    },
  });
  const passThrough: ReadableStream<Uint8Array> = new natives.ReadableStream(underlying);

  const nativeProto = natives.Response.prototype;
  const clone = function clone(this: Response): Response {
    if (passThrough.locked)
      throw new TypeError("Failed to execute 'clone' on 'Response': Response body is already used");
    const copy = natives.responseClone(response);
    tapEventStreamBody(copy, conn, natives, disguise);
    return copy;
  };
  disguise(clone, nativeProto.clone);
  const props: PropertyDescriptorMap = {
    body: bare({ get: () => passThrough, configurable: true, enumerable: false }),
    clone: hidden(clone),
  };
  for (const method of READ_METHODS) {
    if (typeof nativeProto[method] !== 'function') continue;
    const read = nativeProto[method] as (this: Response) => Promise<unknown>;
    // async: a throw (body already used) becomes a rejected promise, as from the native method.
    const readVia = async function (this: Response): Promise<unknown> {
      // A detached Response over the pass-through: same parsing (charset, JSON, blob type) as the original would do.
      const view = new natives.Response(
        passThrough,
        bare({ status: 200, statusText: '', headers: bare({ 'content-type': contentType }) }),
      );
      return await apply<Response, [], Promise<unknown>>(read, view, []);
    };
    defineProperty(readVia, 'name', bare({ value: method }));
    disguise(readVia, read);
    props[method] = hidden(readVia);
  }
  defineProperties(response, props);
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
  void readSmallBody(natives.getReader(body), conn, natives);
}

// async/await, not .then(): awaiting a native promise cannot be intercepted by a page that replaced Promise.prototype.then.
async function readSmallBody(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  conn: ConnectionTap,
  natives: Natives,
): Promise<void> {
  let offset = 0;
  try {
    for (;;) {
      const result = await natives.read(reader);
      if (result.done) return conn.end('complete');
      if (offset + result.value.byteLength > MAX_JSON_BODY) {
        conn.end('complete', 'body recorded up to 1 MiB only');
        await natives.cancelReader(reader, undefined);
        return;
      }
      conn.offer(offset, result.value);
      offset += result.value.byteLength;
    }
  } catch (error) {
    conn.end(isAbortError(error) ? 'aborted' : 'network-error', errorText(error));
  }
}
