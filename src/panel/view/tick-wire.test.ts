import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../core/analyze';
import { syntheticCapture } from '../../core/capture/synthetic.fixture';
import { recordsToCapture } from '../state/capture';
import { applyDeltas, emptyRecords, recordToDeltas } from '../state/records';
import { buildPanelView } from './model';
import { createTickSender, createTickReceiver, wireBuffers } from './tick-wire';
import { createTickMemory } from './ticks';
import { captureEnd, layoutTimeline, type TimelineLayout } from './timeline';

/** The layouts of a growing capture, pass by pass, as the worker's deriver makes them (one tick memory). */
function growingLayouts(events: number, passes: number): TimelineLayout[] {
  const deltas = syntheticCapture(events).connections.flatMap((c) => recordToDeltas(c));
  const analyze = createAnalyzer();
  const memory = createTickMemory();
  const step = Math.ceil(deltas.length / passes);
  const out: TimelineLayout[] = [];
  let records = emptyRecords;
  for (let i = 0; i < deltas.length; i += step) {
    records = applyDeltas(records, deltas.slice(i, i + step));
    const view = buildPanelView(analyze(recordsToCapture(records, { toolVersion: 'test', createdAt: 0 })));
    out.push(layoutTimeline(view, undefined, [], captureEnd(records.connections), memory));
  }
  return out;
}

const plain = (layout: TimelineLayout) =>
  layout.rows.map((r) => ({ ...r, ticks: [...r.ticks], tickEvents: [...r.tickEvents], tickStarts: [...r.tickStarts] }));

describe('the timeline on the wire', () => {
  it('arrives as the worker made it, each view carrying only the ticks the UI lacks', () => {
    const layouts = growingLayouts(3_000, 8);
    const send = createTickSender();
    const receive = createTickReceiver();
    const received: { layout: TimelineLayout; copy: ReturnType<typeof plain> }[] = [];
    let sentTicks = 0;
    for (const layout of layouts) {
      const wire = send(layout);
      sentTicks += wire.rows.reduce((n, r) => n + r.ticks.length, 0);
      // Structured clone with transfer, as postMessage does.
      const arrived = receive(structuredClone(wire, { transfer: wireBuffers(wire) }));
      expect(plain(arrived)).toEqual(plain(layout));
      received.push({ layout: arrived, copy: plain(arrived) });
    }
    // Earlier layouts (still on screen until the next render) keep their ticks while later ones are appended.
    for (const { layout, copy } of received) expect(plain(layout)).toEqual(copy);
    const last = layouts.at(-1) as TimelineLayout;
    expect(sentTicks).toBe(last.rows.reduce((n, r) => n + r.ticks.length, 0));
    expect(layouts.length).toBeGreaterThan(5);
  });

  it('sends a row whole when its ticks are a new series, and refuses ticks out of step', () => {
    const [first, second] = growingLayouts(500, 2) as [TimelineLayout, TimelineLayout];
    const fresh = growingLayouts(500, 1)[0] as TimelineLayout; // another memory: other series
    const send = createTickSender();
    const receive = createTickReceiver();
    receive(send(first));
    const whole = send(fresh);
    expect(whole.rows.every((r) => r.ticksFrom === 0)).toBe(true);
    expect(plain(receive(whole))).toEqual(plain(fresh));
    // A receiver that missed a view cannot place the next one's ticks.
    const behind = createTickReceiver();
    const sender = createTickSender();
    sender(first);
    const tail = sender(second);
    expect(tail.rows.some((r) => r.ticksFrom > 0)).toBe(true);
    expect(() => behind(tail)).toThrow(/do not follow/);
  });
});
