import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../core/analyze';
import { syntheticCapture } from '../../core/capture/synthetic.fixture';
import { recordsToCapture } from '../state/capture';
import { applyDeltas, emptyRecords, recordToDeltas } from '../state/records';
import { buildPanelView } from './model';
import { createTickMemory } from './ticks';
import { captureEnd, layoutTimeline } from './timeline';

const ticksOf = (layout: ReturnType<typeof layoutTimeline>) =>
  layout.rows.map((r) => ({
    id: r.connectionId,
    ticks: [...r.ticks],
    tickEvents: [...r.tickEvents],
    tickStarts: [...r.tickStarts],
  }));

describe('tick memory', () => {
  it('gives, pass after pass of a growing capture, the ticks a fresh layout reads', () => {
    const deltas = syntheticCapture(2_000).connections.flatMap((c) => recordToDeltas(c));
    const analyze = createAnalyzer();
    const memory = createTickMemory();
    let records = emptyRecords;
    const step = Math.ceil(deltas.length / 7);
    let passes = 0;
    let kept: ReturnType<typeof layoutTimeline> | undefined;
    let keptTicks: ReturnType<typeof ticksOf> = [];
    for (let i = 0; i < deltas.length; i += step) {
      records = applyDeltas(records, deltas.slice(i, i + step));
      const view = buildPanelView(analyze(recordsToCapture(records, { toolVersion: 'test', createdAt: 0 })));
      const end = captureEnd(records.connections);
      const remembered = layoutTimeline(view, undefined, [], end, memory);
      expect(ticksOf(remembered)).toEqual(ticksOf(layoutTimeline(view, undefined, [], end)));
      // An earlier layout's rows are views that later passes never write into.
      expect(kept ? ticksOf(kept) : []).toEqual(keptTicks);
      kept = remembered;
      keptTicks = ticksOf(remembered);
      passes++;
    }
    expect(passes).toBeGreaterThan(5);
    expect(keptTicks.reduce((n, r) => n + r.ticks.length, 0)).toBe(2_000 + 2);
  });

  it('starts over when the analysis does not continue the last one', () => {
    const memory = createTickMemory();
    const big = buildPanelView(createAnalyzer()(syntheticCapture(300)));
    const small = buildPanelView(createAnalyzer()(syntheticCapture(100, 1_795_967_700_000)));
    layoutTimeline(big, undefined, [], captureEnd(big.analysis.connections.map((c) => c.record)), memory);
    const end = captureEnd(small.analysis.connections.map((c) => c.record));
    expect(ticksOf(layoutTimeline(small, undefined, [], end, memory))).toEqual(
      ticksOf(layoutTimeline(small, undefined, [], end)),
    );
  });
});
