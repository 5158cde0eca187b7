// Page MAIN world: replaces window.EventSource with a Proxy of the native constructor that records each stream.
//
// The EventSource API hides the bytes and the response head, so its records are RECONSTRUCTED: every event the
// page can receive is re-encoded as SSE text (`id:` when the last event id changed, `event:` unless "message",
// one `data:` line per line); an open gives a 200 text/event-stream head; each reconnect by the browser starts a
// new connection carrying Last-Event-ID. Events of a type the page never listens for are invisible to the page and
// to the tap alike. A torn event can never show here: the browser drops partial events before the page sees them.
import { ConnectionTap } from './connection';
import type { TapContext } from './fetch-tap';
import { attempt, guarded } from './guard';
import {
  apply,
  bare,
  construct,
  cutOf,
  defineProperties,
  defineProperty,
  findIn,
  getPrototypeOf,
  hidden,
  reflectGet,
} from './intrinsics';

class EventSourceFollower {
  private conn: ConnectionTap | null = null;
  private offset = 0;
  private lastEventId = '';
  /** Types the tap listens for; no Set: the page may have replaced Set.prototype.has by now. */
  private readonly subscribed: Record<string, true> = bare({});

  constructor(
    private readonly es: EventSource,
    private readonly ctx: TapContext,
  ) {
    this.connect();
    const { natives } = ctx;
    natives.addListener(es, 'open', () => guarded(() => this.opened()));
    natives.addListener(es, 'error', (event) => guarded(() => this.failed(event)));
    natives.addListener(es, 'message', (event) => guarded(() => this.received(event)));
  }

  /** The page is about to listen for `type`: listen first, so the record sees the event before the page does. */
  subscribe(type: string): void {
    if (type === 'open' || type === 'error' || type === 'message' || this.subscribed[type]) return;
    this.subscribed[type] = true;
    this.ctx.natives.addListener(this.es, type, (event) => guarded(() => this.received(event)));
  }

  closedByPage(): void {
    this.conn?.end('aborted', 'closed by the page');
  }

  private connect(): void {
    const conn = new ConnectionTap(this.ctx.nextId(), this.ctx.sink, this.ctx.natives);
    const requestHeaders = [{ name: 'Accept', value: 'text/event-stream' }];
    if (this.lastEventId) requestHeaders[requestHeaders.length] = { name: 'Last-Event-ID', value: this.lastEventId };
    conn.start({
      source: 'eventsource',
      method: 'GET',
      url: this.es.url,
      requestHeaders,
      startTime: this.ctx.sink.now(),
      documentUrl: this.ctx.documentUrl(),
      withCredentials: this.es.withCredentials,
    });
    this.conn = conn;
    this.offset = 0;
  }

  private opened(): void {
    this.conn?.response(200, 'OK', [{ name: 'content-type', value: 'text/event-stream' }]);
  }

  private failed(event: Event): void {
    // A server event named "error" arrives as a MessageEvent of type "error".
    if (event instanceof this.ctx.natives.MessageEvent) return this.received(event);
    if (this.es.readyState === this.ctx.natives.EventSourceClosed) {
      this.conn?.end('network-error', 'the EventSource failed and closed');
      return;
    }
    this.conn?.end('network-error', 'the stream broke; the browser reconnects');
    this.connect();
  }

  private received(event: Event): void {
    if (!(event instanceof this.ctx.natives.MessageEvent) || !this.conn) return;
    let text = '';
    if (event.lastEventId !== this.lastEventId) text += `id: ${event.lastEventId}\n`;
    this.lastEventId = event.lastEventId;
    if (event.type !== 'message') text += `event: ${event.type}\n`;
    const data: unknown = event.data;
    // Captured built-ins, not split(): the page may have replaced String.prototype.split (or the array iterator).
    const lines = String(data);
    for (let from = 0; ;) {
      const eol = findIn(lines, '\n', from);
      text += `data: ${cutOf(lines, from, eol < 0 ? undefined : eol)}\n`;
      if (eol < 0) break;
      from = eol + 1;
    }
    const bytes = this.ctx.natives.textEncoder.encode(`${text}\n`);
    this.conn.offer(this.offset, bytes);
    this.offset += bytes.byteLength;
  }
}

export function tapEventSource(target: { EventSource?: typeof EventSource }, ctx: TapContext): void {
  const Native = ctx.natives.EventSource;
  if (!Native) return;
  // The page's current members, looked up at each call where the instance would inherit them: a page that patches
  // EventTarget.prototype.addEventListener or EventSource.prototype.close later (Zone.js) still sees every call.
  const inherited = (es: EventSource, name: 'addEventListener' | 'close'): unknown =>
    reflectGet(getPrototypeOf(es) as object, name, es);
  const nativeClose = Native.prototype.close;
  const nativeAdd = EventTarget.prototype.addEventListener;
  const proxy = new Proxy(Native, {
    construct(NativeCtor, args: unknown[], newTarget: object): object {
      const es = construct(NativeCtor, args, newTarget as typeof EventSource) as EventSource;
      guarded(() => {
        const follower = new EventSourceFollower(es, ctx);
        const addEventListener = function addEventListener(
          this: EventSource,
          type: unknown,
          listener: unknown,
          ...rest: unknown[]
        ): void {
          // Only a string: converting anything else would run the page's toString once more than natively.
          if (typeof type === 'string') attempt(() => follower.subscribe(type));
          apply(inherited(es, 'addEventListener') as (...args: unknown[]) => void, this, [type, listener, ...rest]);
        };
        const close = function close(this: EventSource): void {
          guarded(() => follower.closedByPage());
          apply(inherited(es, 'close') as () => void, this, []);
        };
        ctx.disguise(addEventListener, nativeAdd);
        ctx.disguise(close, nativeClose);
        defineProperties(es, bare({ addEventListener: hidden(addEventListener), close: hidden(close) }));
      });
      return es;
    },
  });
  ctx.disguise(proxy, Native);
  // Instances report `es.constructor === EventSource`, as without the tap.
  defineProperty(Native.prototype, 'constructor', hidden(proxy));
  target.EventSource = proxy;
}
