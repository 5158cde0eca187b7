// Runs anywhere (pure core): the JSON-RPC messages one session's events carried that rules look for.
import { idKey } from '../mcp/jsonrpc';
import type { EventView } from '../model/types';
import type { Follower } from './event-log';

/** Of one session's events (time order): those carrying answers or server requests, and server cancellations. */
export class MessageIndex implements Follower {
  private readonly withAnswers: EventView[] = [];
  private readonly withRequests: EventView[] = [];
  private readonly cancelled = new Set<string>();
  private readonly answered = new Map<string, number>();

  /** Events carrying a response or error with an id. */
  get answers(): readonly EventView[] {
    return this.withAnswers;
  }

  /** Events carrying a server-to-client request (with an id). */
  get requests(): readonly EventView[] {
    return this.withRequests;
  }

  /** Request ids (idKey) a `notifications/cancelled` from the server named. */
  get cancelledByServer(): ReadonlySet<string> {
    return this.cancelled;
  }

  /** Request id (idKey) -> epoch ms of the first event answering it. */
  get answeredAt(): ReadonlyMap<string, number> {
    return this.answered;
  }

  add(event: EventView): void {
    let answers = false;
    let requests = false;
    for (const message of event.messages) {
      if (message.method === 'notifications/cancelled') {
        const requestId = (message.value as { params?: { requestId?: unknown } }).params?.requestId;
        if (typeof requestId === 'string' || typeof requestId === 'number') this.cancelled.add(idKey(requestId));
      }
      if (message.id === undefined) continue;
      if (message.kind === 'request') requests = true;
      if (message.kind !== 'response' && message.kind !== 'error') continue;
      answers = true;
      const key = idKey(message.id);
      const earlier = this.answered.get(key);
      if (earlier === undefined || earlier > event.time) this.answered.set(key, event.time);
    }
    if (answers) this.withAnswers.push(event);
    if (requests) this.withRequests.push(event);
  }
}
