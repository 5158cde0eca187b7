// Page MAIN world: the platform functions the tap relies on, captured at document_start before any page script
// can replace them. May not import anything at runtime.

export interface Natives {
  fetch: typeof fetch;
  EventSource: typeof EventSource | undefined;
  EventSourceClosed: number;
  Response: typeof Response;
  Request: typeof Request;
  Headers: typeof Headers;
  AbortSignal: typeof AbortSignal;
  AbortController: typeof AbortController;
  URL: typeof URL;
  ReadableStream: typeof ReadableStream;
  MessageEvent: typeof MessageEvent;
  MessageChannel: typeof MessageChannel;
  ArrayBuffer: typeof ArrayBuffer;
  responseBody: (r: Response) => ReadableStream<Uint8Array> | null;
  responseHeaders: (r: Response) => Headers;
  responseClone: (r: Response) => Response;
  requestMethod: (r: Request) => string;
  requestUrl: (r: Request) => string;
  requestHeaders: (r: Request) => Headers;
  requestSignal: (r: Request) => AbortSignal;
  getReader: (s: ReadableStream<Uint8Array>) => ReadableStreamDefaultReader<Uint8Array>;
  read: (r: ReadableStreamDefaultReader<Uint8Array>) => Promise<ReadableStreamReadResult<Uint8Array>>;
  cancelReader: (r: ReadableStreamDefaultReader<Uint8Array>, reason: unknown) => Promise<void>;
  cancelStream: (s: ReadableStream<Uint8Array>, reason: unknown) => Promise<void>;
  headersForEach: (h: Headers, fn: (value: string, name: string) => void) => void;
  headersGet: (h: Headers, name: string) => string | null;
  addListener: (target: EventTarget, type: string, fn: (e: Event) => void, options?: AddEventListenerOptions) => void;
  removeListener: (target: EventTarget, type: string, fn: (e: Event) => void) => void;
  signalReason: (signal: AbortSignal) => unknown;
  signalAborted: (signal: AbortSignal) => boolean;
  controllerSignal: (controller: AbortController) => AbortSignal;
  abort: (controller: AbortController, reason?: unknown) => void;
  dispatch: (target: EventTarget, e: Event) => boolean;
  postToPort: (port: MessagePort, message: unknown, transfer: Transferable[]) => void;
  startPort: (port: MessagePort) => void;
  messageData: (event: MessageEvent) => unknown;
  byteLength: (bytes: Uint8Array) => number;
  byteOffset: (bytes: Uint8Array) => number;
  bufferOf: (bytes: Uint8Array) => ArrayBufferLike;
  bufferLength: (buffer: ArrayBufferLike) => number;
  /** `target.set(source, offset)`. */
  setBytes: (target: Uint8Array, source: Uint8Array, offset: number) => void;
  now: () => number;
  timeOrigin: number;
  queueMicrotask: (fn: () => void) => void;
  setTimeout: (fn: () => void, ms: number) => void;
  randomValues: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>;
  textEncoder: TextEncoder;
  textDecoder: TextDecoder;
}

type AnyFn = (...args: never[]) => unknown;

/** `fn.call(thisArg, ...args)` that a page cannot intercept by replacing Function.prototype.call later. */
function uncurry<T, A extends unknown[], R>(fn: (this: T, ...args: A) => R): (self: T, ...args: A) => R {
  const apply = Reflect.apply;
  return (self, ...args) => apply(fn as AnyFn, self, args) as R;
}

function getter<T, R>(proto: object, name: string): (self: T) => R {
  const get = Object.getOwnPropertyDescriptor(proto, name)?.get;
  if (!get) throw new TypeError(`no getter ${name}`);
  return uncurry(get as (this: T) => R);
}

export function captureNatives(g: typeof globalThis): Natives {
  const perf = g.performance;
  const nativeSetTimeout = g.setTimeout.bind(g);
  const perfNow = perf.now.bind(perf);
  const typedArrayProto = Object.getPrototypeOf(g.Uint8Array.prototype) as object;
  const readerProto = Object.getPrototypeOf(
    new g.ReadableStream().getReader(),
  ) as ReadableStreamDefaultReader<Uint8Array>;
  return {
    fetch: g.fetch,
    EventSource: g.EventSource,
    EventSourceClosed: g.EventSource?.CLOSED ?? 2,
    Response: g.Response,
    Request: g.Request,
    Headers: g.Headers,
    AbortSignal: g.AbortSignal,
    AbortController: g.AbortController,
    URL: g.URL,
    ReadableStream: g.ReadableStream,
    MessageEvent: g.MessageEvent,
    MessageChannel: g.MessageChannel,
    ArrayBuffer: g.ArrayBuffer,
    responseBody: getter(g.Response.prototype, 'body'),
    responseHeaders: getter(g.Response.prototype, 'headers'),
    responseClone: uncurry(g.Response.prototype.clone),
    requestMethod: getter(g.Request.prototype, 'method'),
    requestUrl: getter(g.Request.prototype, 'url'),
    requestHeaders: getter(g.Request.prototype, 'headers'),
    requestSignal: getter(g.Request.prototype, 'signal'),
    getReader: uncurry(g.ReadableStream.prototype.getReader) as Natives['getReader'],
    read: uncurry<ReadableStreamDefaultReader<Uint8Array>, [], Promise<ReadableStreamReadResult<Uint8Array>>>(
      readerProto.read,
    ),
    cancelReader: uncurry(readerProto.cancel) as Natives['cancelReader'],
    cancelStream: uncurry(g.ReadableStream.prototype.cancel) as Natives['cancelStream'],
    headersForEach: uncurry(g.Headers.prototype.forEach) as Natives['headersForEach'],
    headersGet: uncurry(g.Headers.prototype.get),
    addListener: uncurry(g.EventTarget.prototype.addEventListener) as Natives['addListener'],
    removeListener: uncurry(g.EventTarget.prototype.removeEventListener) as Natives['removeListener'],
    signalReason: getter(g.AbortSignal.prototype, 'reason'),
    signalAborted: getter(g.AbortSignal.prototype, 'aborted'),
    controllerSignal: getter(g.AbortController.prototype, 'signal'),
    abort: uncurry(g.AbortController.prototype.abort),
    dispatch: uncurry(g.EventTarget.prototype.dispatchEvent),
    postToPort: uncurry(g.MessagePort.prototype.postMessage) as Natives['postToPort'],
    startPort: uncurry(g.MessagePort.prototype.start),
    messageData: getter(g.MessageEvent.prototype, 'data'),
    byteLength: getter(typedArrayProto, 'byteLength'),
    byteOffset: getter(typedArrayProto, 'byteOffset'),
    bufferOf: getter(typedArrayProto, 'buffer'),
    bufferLength: getter(g.ArrayBuffer.prototype, 'byteLength'),
    setBytes: uncurry((typedArrayProto as Uint8Array).set) as Natives['setBytes'],
    now: perfNow,
    timeOrigin: perf.timeOrigin,
    queueMicrotask: g.queueMicrotask.bind(g),
    setTimeout: (fn, ms) => {
      nativeSetTimeout(fn, ms);
    },
    randomValues: (bytes) => g.crypto.getRandomValues(bytes),
    textEncoder: new g.TextEncoder(),
    textDecoder: new g.TextDecoder(),
  };
}
