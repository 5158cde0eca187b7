import { describe, expect, it } from 'vitest';
import { exampleView } from './fixtures.test-util';
import { linkLabel } from './linkLabel';
import { captureEnd, layoutTimeline, LINK_LABEL_BAND, ROW_HEIGHT } from './timeline';
import { BAR_HEIGHT, BAR_TOP, MARKER_BOTTOM } from './timelineHit';
import { xOf, type TimeWindow } from './timeWindow';

interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}
const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

describe('reconnect link labels', () => {
  const view = exampleView('cut-mid-event');
  const end = captureEnd(view.analysis.connections.map((c) => c.record));
  const layout = layoutTimeline(
    view,
    undefined,
    view.analysis.findings.map((_, i) => i),
    end,
  );

  it('gives the resuming row a band under its bar for the label, and no other row', () => {
    const link = layout.links[0]!;
    expect(layout.rows[link.toRow]!.height).toBe(ROW_HEIGHT + LINK_LABEL_BAND);
    expect(layout.rows.filter((r) => r.height !== ROW_HEIGHT)).toHaveLength(1);
    expect(layout.height).toBe(layout.rows.reduce((sum, r) => sum + r.height, 0) + layout.lanes.length * 5);
  });

  it('never overdraws a finding marker or a bar, and stays inside the plot, at any zoom and width', () => {
    const span = layout.end - layout.start;
    const windows: TimeWindow[] = [
      { from: layout.start, to: layout.end },
      { from: layout.start + span * 0.4, to: layout.start + span * 0.7 },
      { from: layout.start - span * 0.1, to: layout.start + span * 0.55 },
    ];
    for (const width of [180, 420, 900]) {
      for (const w of windows) {
        const x = (t: number) => xOf(w, width, t);
        const obstacles: Box[] = [
          ...layout.markers.map((m) => {
            const row = layout.rows[m.rowIndex]!;
            return { x0: x(m.time) - 4.5, x1: x(m.time) + 4.5, y0: row.y, y1: row.y + MARKER_BOTTOM };
          }),
          ...layout.rows.map((r) => ({
            x0: x(r.start),
            x1: Math.max(x(r.end), x(r.start) + 1),
            y0: r.y + BAR_TOP,
            y1: r.y + BAR_TOP + BAR_HEIGHT,
          })),
        ];
        for (const link of layout.links) {
          const label = linkLabel(link.lastEventId, x(link.fromTime) + 6, layout.rows[link.toRow]!, width);
          const box = { x0: label.x, x1: label.x + label.width, y0: label.top, y1: label.top + LINK_LABEL_BAND };
          expect(box.x0).toBeGreaterThanOrEqual(0);
          expect(box.x1).toBeLessThanOrEqual(width);
          for (const o of obstacles) expect(overlaps(box, o)).toBe(false);
        }
      }
    }
  });

  it('starts at the link when there is room, and shifts left at the right edge', () => {
    const row = { y: 40 };
    expect(linkLabel('call-3', 100, row, 800).x).toBe(98);
    const atEdge = linkLabel('call-3', 790, row, 800);
    expect(atEdge.x + atEdge.width).toBeLessThanOrEqual(796);
  });

  it('keeps both ends of a long id when the plot is narrow', () => {
    const id = 'db173ed2-2e82-456d-a2d1-76c55b64efeb_1795967688811_ukzql3ku';
    const label = linkLabel(id, 10, { y: 0 }, 200);
    expect(label.value.startsWith('db173')).toBe(true);
    expect(label.value.endsWith('ukzql3ku')).toBe(true);
    expect(label.value).toContain('…');
    expect(label.width).toBeLessThanOrEqual(192);
  });

  it('says so when a resume carried no Last-Event-ID', () => {
    expect(linkLabel(undefined, 10, { y: 0 }, 600)).toMatchObject({
      prefix: '',
      value: 'resumed without Last-Event-ID',
    });
  });
});
