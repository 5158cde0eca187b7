import { describe, expect, it } from 'vitest';
import {
  EVENTS_SHORT,
  FINDING_ROW,
  findingsHeight,
  MIN_CENTER,
  PANE_HEADER,
  TIMELINE_FOLDED,
  TIMELINE_MIN,
  timelineHeight,
  workspaceLayout,
  workspaceMode,
} from './workspace';

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

describe('a short panel (a toolbox docked at the bottom)', () => {
  const sizes = { sessions: 210, detail: 400 };
  // Firefox's default toolbox (250 px) leaves the panel about 220 px; toolbar and status bar take 49 of it.
  const FIREFOX_DEFAULT = 220 - 49;
  const cases = [
    { width: 1366, detailOpen: false },
    { width: 1366, detailOpen: true },
    { width: 700, detailOpen: false },
    { width: 700, detailOpen: true },
  ];
  const lanes = (n: number) => 46 + n * 25;

  it('keeps the findings header and first row on screen, with every pane fitted into the height', () => {
    for (const { width, detailOpen } of cases) {
      for (let height = 100; height <= 320; height += 7) {
        for (const findings of [0, 1, 3, 40]) {
          const layout = workspaceLayout(width, height, sizes, { timeline: lanes(6), findings, detailOpen });
          const where = `${width}x${height}, ${findings} findings${detailOpen ? ', detail open' : ''}`;
          const heights = [
            layout.timeline,
            layout.events,
            layout.findings,
            ...(layout.mode === 'narrow' ? [layout.detail] : []),
          ];
          for (const h of heights) expect(h, where).toBeGreaterThanOrEqual(0);
          expect(layout.findings, where).toBeGreaterThanOrEqual(PANE_HEADER + FINDING_ROW);
          // The grid's fixed rows and the table's 1fr row add up to the height exactly: nothing spills under the
          // status bar, nothing overlaps.
          expect(px(layout.rows).reduce((a, b) => a + b, 0) + layout.events, where).toBe(height);
        }
      }
    }
  });

  it("at Firefox's default height shrinks the lanes to one, keeps the table a header and a row, and the findings below", () => {
    const layout = workspaceLayout(1366, FIREFOX_DEFAULT, sizes, {
      timeline: lanes(5),
      findings: 1,
      detailOpen: false,
    });
    expect(layout.timeline).toBe(TIMELINE_MIN);
    expect(layout.events).toBeGreaterThanOrEqual(EVENTS_SHORT);
    expect(layout.findings).toBe(48);
    expect(layout.rows).toBe(`${TIMELINE_MIN}px 1px minmax(0, 1fr) 1px 48px`);
  });

  it('folds the timeline to its header rather than show a sliver of a lane, and gives the room to the table', () => {
    for (const { width, detailOpen } of cases) {
      for (let height = 60; height <= 400; height++) {
        const { timeline } = workspaceLayout(width, height, sizes, { timeline: lanes(5), findings: 2, detailOpen });
        expect(
          [0, TIMELINE_FOLDED].includes(timeline) || timeline >= TIMELINE_MIN,
          `${width}x${height}: ${timeline}`,
        ).toBe(true);
      }
    }
    const folded = workspaceLayout(1366, 151, sizes, { timeline: lanes(5), findings: 1, detailOpen: false });
    expect(folded.timeline).toBe(TIMELINE_FOLDED);
    expect(folded.events).toBeGreaterThanOrEqual(EVENTS_SHORT + 20);
  });

  it('lets a timeline the user dragged open stay while the table gives way', () => {
    const content = { timeline: lanes(5), findings: 1, detailOpen: false };
    expect(workspaceLayout(1366, 151, sizes, content).timeline).toBe(TIMELINE_FOLDED);
    const dragged = workspaceLayout(1366, 151, { ...sizes, timeline: 90 }, content);
    expect(dragged.timeline).toBeGreaterThanOrEqual(TIMELINE_MIN);
    expect(dragged.events).toBeGreaterThanOrEqual(22);
    expect(dragged.findings).toBe(48);
  });

  it('leaves a normal height as it was: the lanes to their share, the findings to their rows', () => {
    const layout = workspaceLayout(1366, 600, sizes, { timeline: lanes(5), findings: 3, detailOpen: false });
    expect(layout.timeline).toBe(lanes(5));
    expect(layout.findings).toBe(findingsHeight(3, 600, undefined));
    expect(layout.events).toBe(600 - 2 - lanes(5) - layout.findings);
  });
});
