import { describe, expect, it } from 'vitest';
import { cutAndResume, exampleView } from './fixtures.test-util';
import { captureEnd, layoutTimeline } from './timeline';
import { hitTest } from './timelineHit';
import { xOf } from './timeWindow';

const view = exampleView('cut-mid-event');
const { cut, resume } = cutAndResume(view);
const layout = layoutTimeline(
  view,
  undefined,
  view.analysis.findings.map((_, i) => i),
  captureEnd(view.analysis.connections.map((c) => c.record)),
);
const window = { from: layout.start, to: layout.end };
const width = 1000;

describe('timeline clicks', () => {
  const resumeRow = layout.rows.find((r) => r.connectionId === resume)!;
  const postRow = layout.rows.find((r) => r.connectionId === cut)!;

  it('land on an event tick', () => {
    const t = resumeRow.ticks[0]!;
    expect(hitTest(layout, window, width, xOf(window, width, t) + 1, resumeRow.y + 12)).toEqual({
      kind: 'event',
      eventIndex: resumeRow.tickEvents[0],
    });
  });

  it('land on a finding marker above the bar', () => {
    const marker = layout.markers.find((m) => m.rowIndex === layout.rows.indexOf(postRow))!;
    expect(hitTest(layout, window, width, xOf(window, width, marker.time), postRow.y + 3)).toEqual({
      kind: 'finding',
      findingIndex: marker.findingIndex,
    });
  });

  it('land on the connection bar between ticks, and on nothing outside it', () => {
    // Halfway between the last event and the cut: bar, no tick.
    const x = (xOf(window, width, postRow.ticks.at(-1)!) + xOf(window, width, postRow.torn!.from)) / 2;
    expect(hitTest(layout, window, width, x, postRow.y + 12)).toEqual({ kind: 'connection', connectionId: cut });
    expect(hitTest(layout, window, width, xOf(window, width, postRow.start) - 50, postRow.y + 12)).toBeUndefined();
    expect(hitTest(layout, window, width, 10, layout.height + 50)).toBeUndefined();
  });
});
