import { describe, expect, it } from 'vitest';
import { findingsHeight, MIN_CENTER, timelineHeight, workspaceLayout, workspaceMode } from './workspace';

const px = (template: string) => [...template.matchAll(/(\d+)px(?![^(]*\))/g)].map((m) => Number(m[1]));
const areaNames = (areas: string) => new Set(areas.replace(/"/g, ' ').split(/\s+/).filter(Boolean));

describe('workspace layout', () => {
  const sizes = { sessions: 210, detail: 380 };
  const content = { timeline: 200, findings: 3, detailOpen: true };

  it('is wide on a desktop window and narrow when DevTools is docked at the side', () => {
    expect(workspaceMode(1280)).toBe('wide');
    expect(workspaceMode(600)).toBe('narrow');
  });

  it('keeps the table at least MIN_CENTER wide beside the side panes, whatever was dragged', () => {
    for (const width of [900, 1000, 1280, 1600]) {
      const layout = workspaceLayout(width, 800, { sessions: 480, detail: 900 }, content);
      const [sessions, , , detail] = px(layout.columns);
      expect(width - sessions! - detail! - 2).toBeGreaterThanOrEqual(MIN_CENTER);
    }
  });

  it('at 600x500 stacks the detail under the events table and narrows the sessions column', () => {
    const layout = workspaceLayout(600, 470, sizes, content);
    expect(layout.mode).toBe('narrow');
    expect(layout.sessions).toBeLessThanOrEqual(150);
    expect(layout.areas).toMatch(
      /"sessions split-left events" "sessions split-left split-right" "sessions split-left detail"/,
    );
    const rows = px(layout.rows);
    expect(rows.reduce((a, b) => a + b, 0) + 60).toBeLessThanOrEqual(470);
    // The lanes give way to the detail, and the table keeps room for a few rows.
    expect(layout.timeline).toBeLessThan(workspaceLayout(600, 470, sizes, { ...content, detailOpen: false }).timeline);
    expect(470 - layout.timeline - layout.detail - layout.findings - 4).toBeGreaterThanOrEqual(100);
  });

  it('hides the detail in a narrow workspace while nothing is selected', () => {
    const layout = workspaceLayout(600, 470, sizes, { ...content, detailOpen: false });
    expect(layout.showDetail).toBe(false);
    expect(areaNames(layout.areas).has('detail')).toBe(false);
  });

  it('names every pane in both modes, so no pane is left without a place', () => {
    for (const width of [600, 1280]) {
      const names = areaNames(workspaceLayout(width, 800, sizes, content).areas);
      for (const pane of ['sessions', 'timeline', 'events', 'detail', 'findings']) expect(names.has(pane)).toBe(true);
    }
  });
});

describe('pane heights that follow their content', () => {
  it('sizes the timeline to its lanes, and caps it so the table keeps room (it scrolls past that)', () => {
    expect(timelineHeight(150, 700, undefined)).toBe(150);
    expect(timelineHeight(600, 700, undefined)).toBe(280);
    expect(timelineHeight(600, 700, 500)).toBe(500);
  });

  it('sizes the findings list to its rows, with a line for "none"', () => {
    expect(findingsHeight(0, 800, undefined)).toBe(50);
    expect(findingsHeight(4, 800, undefined)).toBe(110);
    expect(findingsHeight(40, 800, undefined)).toBe(200);
    expect(findingsHeight(40, 800, 300)).toBe(300);
  });
});
