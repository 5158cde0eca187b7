// Runs in Node (vitest): facts about what crossed the wire in an intermediary run, for the tests to assert on: which
// connection is which, how long a stream was silent before it ended, what nginx logged, what the server wrote when.
import type { ConnectionRecord } from '../../../src/core/capture/model';
import type { OriginStored, OriginWrite } from '../buffering/express-origin';
import { postKind, requestHeader } from '../testing';
import type { RunOutcome } from './runs';

/** The time of the last byte the client got on this connection: its last chunk, else its response head. */
function lastByteAt(c: ConnectionRecord): number {
  return c.chunks.at(-1)?.t ?? c.responseTime ?? c.startTime;
}

/** How long the connection had been silent when it ended (ms). */
export function silenceBeforeEnd(c: ConnectionRecord): number {
  if (c.endTime === undefined) throw new Error(`${c.id} has not ended`);
  return c.endTime - lastByteAt(c);
}

/** The longest stretch without a byte from the response head to the end (ms). */
export function longestSilence(c: ConnectionRecord): number {
  const times = [c.responseTime ?? c.startTime, ...c.chunks.map((chunk) => chunk.t), c.endTime ?? lastByteAt(c)];
  return Math.max(...times.slice(1).map((t, i) => t - (times[i] as number)));
}

/** nginx's own word for each cut: `upstream timed out (110: Connection timed out) while reading upstream`. */
export function upstreamTimeouts(nginxLog: string): number {
  return nginxLog.split('\n').filter((line) => line.includes('upstream timed out')).length;
}

export function responseHeader(c: ConnectionRecord, name: string): string | undefined {
  return c.responseHeaders?.find((h) => h.name.toLowerCase() === name)?.value;
}

/** The one element of `list`; throws when there are none or more. */
export function only<T>(list: readonly T[], what: string): T {
  if (list.length !== 1) throw new Error(`${list.length} ${what}, want exactly 1`);
  return list[0] as T;
}

/** The one POST carrying `tools/call`. */
export function toolCall(o: RunOutcome): ConnectionRecord {
  return only(
    o.connections.filter((c) => postKind(c) === 'tools/call'),
    'tools/call POSTs',
  );
}

/** The standalone GETs: GET without Last-Event-ID. */
export function standaloneGets(o: RunOutcome): ConnectionRecord[] {
  return o.connections.filter((c) => c.method === 'GET' && requestHeader(c, 'last-event-id') === undefined);
}

/** What the server wrote into the tools/call response, in order, empty writes (the end) left out. */
export function callWrites(o: RunOutcome): OriginWrite[] {
  return o.writes.filter((w) => w.method === 'POST' && w.rpc === 'tools/call' && w.text !== '');
}

/** The answer to tools/call as the server stored it: what it produced and when, whether or not a stream carried it. */
export function storedAnswer(o: RunOutcome): OriginStored {
  const id = (JSON.parse(toolCall(o).requestBody ?? '{}') as { id?: unknown }).id;
  const answer = o.stored.find((s) => 'result' in s.message && s.message.id === id);
  if (!answer) throw new Error('the server stored no answer to tools/call');
  return answer;
}

/** The priming event the server wrote first on the tools/call stream, its id and when the server wrote it. */
export function primingOf(o: RunOutcome): { text: string; id: string; t: number } {
  const first = callWrites(o)[0];
  const id = first && /^id: (.+)$/m.exec(first.text)?.[1];
  if (!first || !id || first.text.includes('"jsonrpc"')) throw new Error('no priming event on the tools/call stream');
  return { text: first.text, id, t: first.t };
}
