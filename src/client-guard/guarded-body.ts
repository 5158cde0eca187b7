// Runs anywhere (browsers, Node, Workers): an event-stream body as the client guard hands it to the client: whole
// events only, each judged; a refusal ends it with a typed error; a follow-up body may continue it (a re-issue).
// Uses only the web streams API.
import type { SseEvent, SseTail } from '../core/sse';
import { WholeEventGate, type Verdict } from './whole-events';

/** How one upstream body is judged and what happens at its end. */
export interface BodyHooks {
  /** Judges each whole event; a `stop` must leave its reason in `refusal()`. */
  judge(event: SseEvent): Verdict;
  /** Why the last `stop` (or the silence deadline) ended the stream. */
  refusal(): Error | undefined;
  /**
   * The upstream body ended: cleanly (`error` undefined) or with `error`; `torn` is the event it was holding,
   * `retryMs` the reconnection time the stream set. May return a refusal to end the stream with, or a follow-up body
   * to read on (a resume or a re-issued request's).
   */
  ended(torn: SseTail | undefined, error: unknown, retryMs: number | undefined): Promise<BodyEnd> | BodyEnd;
  /** After this many milliseconds without a judged event, `silence()` may refuse the stream (0: never). */
  silenceMs?: number;
  silence?(): Error | undefined;
}

export type BodyEnd =
  | { kind: 'end' }
  | { kind: 'fail'; error: unknown }
  | { kind: 'follow'; body: ReadableStream<Uint8Array>; hooks: BodyHooks };

/** The guarded body over `upstream`. Cancelling it cancels the upstream body (the fetch's connection). */
export function guardBody(upstream: ReadableStream<Uint8Array>, first: BodyHooks): ReadableStream<Uint8Array> {
  let reader = upstream.getReader();
  let hooks = first;
  let gate = new WholeEventGate();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let silenced: Error | undefined;

  const clearSilence = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const armSilence = (): void => {
    clearSilence();
    const ms = hooks.silenceMs ?? 0;
    if (ms <= 0 || !hooks.silence) return;
    timer = setTimeout(() => {
      silenced = hooks.silence?.();
      if (silenced) void reader.cancel(silenced).catch(() => undefined);
    }, ms);
  };
  const judge = (event: SseEvent): Verdict => {
    const verdict = hooks.judge(event);
    if (verdict !== 'stop') armSilence();
    return verdict;
  };

  return new ReadableStream<Uint8Array>({
    start: armSilence,
    async pull(controller) {
      for (;;) {
        let result: Awaited<ReturnType<typeof reader.read>>;
        try {
          result = await reader.read();
        } catch (error) {
          if (await finish(controller, error)) return;
          continue;
        }
        if (silenced) {
          clearSilence();
          controller.error(silenced);
          return;
        }
        if (result.done) {
          if (await finish(controller, undefined)) return;
          continue;
        }
        const out = gate.push(result.value, judge);
        for (const bytes of out) controller.enqueue(bytes);
        const refusal = hooks.refusal();
        if (refusal) {
          clearSilence();
          void reader.cancel(refusal).catch(() => undefined);
          controller.error(refusal);
          return;
        }
        if (out.length > 0) return;
      }
    },
    cancel(reason) {
      clearSilence();
      return reader.cancel(reason);
    },
  });

  /** The upstream ended (or failed): true when the guarded body is over, false when a follow-up body goes on. */
  async function finish(controller: ReadableStreamDefaultController<Uint8Array>, error: unknown): Promise<boolean> {
    clearSilence();
    if (silenced) {
      controller.error(silenced);
      return true;
    }
    const end = gate.finish();
    for (const bytes of end.out) controller.enqueue(bytes);
    const next = await hooks.ended(end.torn, error, gate.reconnectionTime);
    if (next.kind === 'follow') {
      reader = next.body.getReader();
      hooks = next.hooks;
      gate = new WholeEventGate();
      armSilence();
      return false;
    }
    if (next.kind === 'fail') controller.error(next.error);
    else if (error !== undefined) controller.error(error);
    else controller.close();
    return true;
  }
}
