// Runs anywhere (pure core): what the silence rules read off a connection: when its last message came, and how long
// a span of milliseconds is, said the way their messages say it.
import type { ConnectionView, Model } from '../model/types';

/** The time of the connection's last event that carried a JSON-RPC message (priming and keep-alives aside), if any. */
export function lastMessageTime(model: Model, conn: ConnectionView): number | undefined {
  for (let k = conn.eventIndexes.length - 1; k >= 0; k--) {
    const event = model.events.at(conn.eventIndexes.at(k) as number);
    if (event && event.envelopes.length > 0) return event.time;
  }
  return undefined;
}

/** "950 ms", "3.0 s", "2 min 5 s". */
export function span(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
