import { describe, expect, it } from 'vitest';
import { RECORDER_BINDING } from '../../protocol/events';
import type { RecorderRequest, RecorderToNode } from '../../protocol/messages';
import { TapChannel } from '../../tap/channel';
import { captureNatives } from '../../tap/natives';
import { startReceiver } from './receiver';

/** A window of its own (an EventTarget with the constructors the receiver reads) holding the fixture's binding. */
function page() {
  const sent: RecorderToNode[] = [];
  const nexts: ((request: RecorderRequest) => void)[] = [];
  let arrived: (() => void)[] = [];
  const binding = (message: RecorderToNode): Promise<unknown> => {
    sent.push(message);
    arrived.splice(0).forEach((wake) => wake());
    if (message.kind === 'hello') return Promise.resolve({ revealSecrets: false });
    if (message.kind === 'next') return new Promise((resolve) => nexts.push(resolve));
    return Promise.resolve(undefined);
  };
  const win = Object.assign(new EventTarget(), {
    Event,
    MessageEvent,
    Uint8Array,
    Promise,
    [RECORDER_BINDING]: binding,
  }) as unknown as typeof globalThis;
  const natives = captureNatives(globalThis);
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise<void>((resolve) => arrived.push(resolve));
  };
  return { win, natives, sent, nexts, until, reset: () => (arrived = []) };
}

describe('the fixture receiver', () => {
  it("takes the binding off the page's window, takes the tap's port, and hands the tap's batches on", async () => {
    const p = page();
    const tap = new TapChannel(p.natives, p.win, 'tap');
    tap.open();
    startReceiver(p.win, p.natives);
    expect(RECORDER_BINDING in p.win).toBe(false);
    tap.push({ kind: 'chunk', id: 'c1', t: 1, bytes: new TextEncoder().encode('data: 1\n\n') });
    await p.until(() => p.sent.some((m) => m.kind === 'deltas'));
    const batch = p.sent.find((m) => m.kind === 'deltas');
    expect(batch).toMatchObject({ kind: 'deltas', deltas: [{ kind: 'chunk', id: 'c1', t: 1 }] });
    expect(p.sent.map((m) => m.kind).slice(0, 2)).toEqual(['hello', 'next']);
  });

  it("answers the test's flush with the tap's marked batch, after every batch before it", async () => {
    const p = page();
    const tap = new TapChannel(p.natives, p.win, 'tap');
    tap.open();
    startReceiver(p.win, p.natives);
    await p.until(() => p.nexts.length === 1);
    tap.push({ kind: 'chunk', id: 'c1', t: 1, bytes: new Uint8Array(3).fill(1) });
    p.nexts[0]?.({ kind: 'flush', flush: 5 });
    await p.until(() => p.sent.some((m) => m.kind === 'deltas' && m.flushed === 5));
    // The chunk pushed before the request is in the marked batch or one before it; the marked batch comes last.
    const batches = p.sent.filter((m) => m.kind === 'deltas');
    expect(batches.flatMap((b) => b.deltas.map((d) => d.kind))).toEqual(['chunk']);
    expect(batches.map((b) => b.flushed ?? null).at(-1)).toBe(5);
    // It waits for the next request at once.
    await p.until(() => p.nexts.length === 2);
    p.nexts[1]?.({ kind: 'stop' });
  });

  it('does nothing without the binding (a page the fixture does not record)', () => {
    const p = page();
    delete (p.win as unknown as Record<string, unknown>)[RECORDER_BINDING];
    const target = p.win as unknown as EventTarget;
    let offered = 0;
    target.addEventListener('mcp-stream-inspector:hello', () => offered++);
    startReceiver(p.win, p.natives);
    expect(offered).toBe(0);
  });
});
