// Runs anywhere (pure core): the JSON-RPC messages one session's events carried that rules look for.
import { idKey } from '../mcp/jsonrpc';
import type { EventView } from '../model/types';
import type { EventLog, Follower } from './event-log';

/**
 * Of one session's events (time order): those carrying answers or server requests, and server cancellations. It
 * reads the events' envelopes (no JSON is parsed) and keeps event indexes; events are made when asked for.
 */
export class MessageIndex implements Follower {
  private readonly withAnswers: number[] = [];
  private readonly withRequests: number[] = [];
  private readonly cancelled = new Set<string>();
  private readonly answered = new Map<string, number>();

  constructor(private readonly log: EventLog) {}

  /** Events carrying a response or error with an id (made on each call). */
  get answers(): EventView[] {
    return this.withAnswers.map((index) => this.log.event(index));
  }

  /** Events carrying a server-to-client request (with an id; made on each call). */
  get requests(): EventView[] {
    return this.withRequests.map((index) => this.log.event(index));
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
    for (const message of event.envelopes) {
      if (message.cancels !== undefined) this.cancelled.add(idKey(message.cancels));
      if (message.id === undefined) continue;
      if (message.kind === 'request') requests = true;
      if (message.kind !== 'response' && message.kind !== 'error') continue;
      answers = true;
      const key = idKey(message.id);
      const earlier = this.answered.get(key);
      if (earlier === undefined || earlier > event.time) this.answered.set(key, event.time);
    }
    if (answers) this.withAnswers.push(event.index);
    if (requests) this.withRequests.push(event.index);
  }
}
