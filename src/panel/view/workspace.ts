// Panel (pure): how the workspace is cut into panes for the space DevTools gives it. Wide: sessions | timeline over
// events | detail, findings along the bottom. Narrow (DevTools docked at the side, ~500–900 px): a slim sessions
// column, and the detail stacks under the events table, only while something is selected. Short (a toolbox docked
// at the bottom, ~170–250 px): the panes give way in a fixed order so the findings stay on screen (see giveWay).

export type WorkspaceMode = 'wide' | 'narrow';

/** Below this panel width the detail pane cannot sit beside a readable table. */
export const NARROW_BELOW = 900;
/** The events table and timeline never get less than this beside the side panes. */
export const MIN_CENTER = 320;

/** What the user chose by dragging splitters; undefined heights follow the content. */
export interface PaneSizes {
  sessions: number;
  detail: number;
  detailHeight?: number;
  timeline?: number;
  findings?: number;
}

export interface PaneContent {
  /** The timeline's own height at full size: header, axis and every lane. */
  timeline: number;
  /** Rows in the findings list (0 shows one line saying there are none). */
  findings: number;
  /** Whether anything is selected (a narrow workspace shows the detail only then). */
  detailOpen: boolean;
}

export interface WorkspaceLayout {
  mode: WorkspaceMode;
  columns: string;
  rows: string;
  areas: string;
  /** The pane heights and widths actually used, for splitters to resize from. */
  sessions: number;
  detail: number;
  timeline: number;
  /** The events table's height (its grid row takes what the others leave). */
  events: number;
  findings: number;
  showDetail: boolean;
}

export const PANE_HEADER = 24;
export const FINDING_ROW = 20;
/** The events table's column header, and what it keeps at a short height: that header and one row. */
export const EVENTS_HEADER = 22;
export const EVENTS_SHORT = EVENTS_HEADER + 20;
/** The timeline's header, axis and one lane; below that it folds to its pane header (a drag opens it again). */
export const TIMELINE_MIN = 70;
export const TIMELINE_FOLDED = 24;
/** A narrow detail pane squeezed by a short panel: its header and a few lines. */
const DETAIL_SHORT = 72;
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The wide grid, row by row: five columns (sessions, splitter, centre, splitter, detail). */
const WIDE_AREAS = [
  'sessions split-left timeline split-right detail',
  'sessions split-left split-mid split-right detail',
  'sessions split-left events split-right detail',
  'split-bottom split-bottom split-bottom split-bottom split-bottom',
  'findings findings findings findings findings',
];

/** grid-template-areas: one quoted string per row. */
const gridAreas = (rows: readonly string[]) => rows.map((r) => `"${r}"`).join(' ');

export function workspaceMode(width: number): WorkspaceMode {
  return width < NARROW_BELOW ? 'narrow' : 'wide';
}

/** Findings list sized to its rows, between one row and a quarter of the height (a drag overrides). */
export function findingsHeight(rows: number, height: number, chosen: number | undefined): number {
  const max = Math.max(48, Math.floor(height * 0.25));
  if (chosen !== undefined) return clamp(chosen, 48, Math.max(48, height - 160));
  return clamp(PANE_HEADER + Math.max(1, rows) * FINDING_ROW + 6, 48, max);
}

/** The timeline sized to its lanes, up to a share of the height (it scrolls past that; a drag overrides). */
export function timelineHeight(content: number, height: number, chosen: number | undefined, share = 0.4): number {
  const max = Math.max(90, Math.floor(height * share));
  if (chosen !== undefined) return clamp(chosen, 70, Math.max(70, height - 140));
  return clamp(content, 70, max);
}

/** The panes stacked in the centre column, top to bottom (the findings run under all columns). */
interface Stack {
  timeline: number;
  events: number;
  detail: number;
  findings: number;
}

/**
 * One step of giving way: `pane` shrinks towards `floor` while the stack is taller than the room; a folding step
 * goes to its floor at once (a sliver of a lane is no use: the room goes to the table instead).
 */
type Step = readonly [keyof Stack, number, 'fold'?];

/**
 * Fits the stack into `room` by taking the steps in order, each only as far as needed; the last steps go to 0, so
 * the stack always fits. Sizes that follow the content give way before sizes the user dragged.
 */
function giveWay(stack: Stack, room: number, steps: readonly Step[]): Stack {
  const h = { ...stack };
  for (const [pane, floor, fold] of steps) {
    const over = h.timeline + h.events + h.detail + h.findings - room;
    if (over <= 0) break;
    h[pane] = fold ? Math.min(h[pane], floor) : Math.max(Math.min(h[pane], floor), h[pane] - over);
  }
  return h;
}

/**
 * The order in which the panes give way on a short panel: the lanes first (to one lane), then the events table (to
 * its header and one row), then the lanes fold to their header, a stacked detail shrinks to a few lines, the table to
 * its header. The findings keep their header and first row until everything else is gone. A timeline the user dragged
 * open gives way only after the table and the detail.
 */
function shortSteps(timelineDragged: boolean): Step[] {
  // The detail has a height only when stacked under a narrow table; elsewhere its steps change nothing.
  const first: Step[] = timelineDragged
    ? [
        ['events', EVENTS_SHORT],
        ['detail', DETAIL_SHORT],
        ['events', EVENTS_HEADER],
        ['detail', PANE_HEADER],
        ['timeline', TIMELINE_MIN],
        ['timeline', TIMELINE_FOLDED, 'fold'],
      ]
    : [
        ['timeline', TIMELINE_MIN],
        ['events', EVENTS_SHORT],
        ['timeline', TIMELINE_FOLDED, 'fold'],
        ['detail', DETAIL_SHORT],
        ['events', EVENTS_HEADER],
        ['detail', PANE_HEADER],
      ];
  return [...first, ['timeline', 0, 'fold'], ['findings', PANE_HEADER], ['events', 0], ['detail', 0], ['findings', 0]];
}

export function workspaceLayout(
  width: number,
  height: number,
  sizes: PaneSizes,
  content: PaneContent,
): WorkspaceLayout {
  const mode = workspaceMode(width);
  const wantFindings = findingsHeight(content.findings, height, sizes.findings);
  // Stacked under a narrow table, the detail needs the room more than the lanes do.
  const stacked = mode === 'narrow' && content.detailOpen;
  const wantTimeline = timelineHeight(content.timeline, height - wantFindings, sizes.timeline, stacked ? 0.28 : 0.4);
  // Narrow: the detail takes the lower part of the centre, only while something is selected.
  const showDetail = mode === 'wide' || content.detailOpen;
  const centre = height - wantFindings - 2;
  const wantDetail = stacked
    ? clamp(sizes.detailHeight ?? Math.floor(centre * 0.45), 100, Math.max(100, centre - wantTimeline - 80))
    : 0;
  // One splitter under the timeline, one over the findings, and one over a stacked detail.
  const room = Math.max(0, height - 2 - (stacked ? 1 : 0));
  const fitted = giveWay(
    { timeline: wantTimeline, events: mode === 'wide' ? 80 : 60, detail: wantDetail, findings: wantFindings },
    room,
    shortSteps(sizes.timeline !== undefined),
  );
  const { timeline, findings } = fitted;
  // The table's grid row is 1fr: it takes what the others leave, which is at least what giveWay kept for it.
  const events = room - timeline - fitted.detail - findings;
  if (mode === 'wide') {
    const sessions = clamp(sizes.sessions, 120, Math.min(480, width * 0.3));
    const detail = clamp(sizes.detail, 220, Math.max(220, width - sessions - 2 - MIN_CENTER));
    return {
      mode,
      columns: `${sessions}px 1px minmax(${MIN_CENTER}px, 1fr) 1px ${detail}px`,
      rows: `${timeline}px 1px minmax(0, 1fr) 1px ${findings}px`,
      areas: gridAreas(WIDE_AREAS),
      sessions,
      detail,
      timeline,
      events,
      findings,
      showDetail,
    };
  }
  // Narrow: sessions shrink to a quarter (at most their chosen width).
  const sessions = clamp(Math.min(sizes.sessions, Math.floor(width * 0.25)), 110, 200);
  const detail = fitted.detail;
  const areaRows = ['sessions split-left timeline', 'sessions split-left split-mid', 'sessions split-left events'];
  const rowSizes = [`${timeline}px`, '1px', 'minmax(0, 1fr)'];
  if (showDetail) {
    areaRows.push('sessions split-left split-right', 'sessions split-left detail');
    rowSizes.push('1px', `${detail}px`);
  }
  areaRows.push('split-bottom split-bottom split-bottom', 'findings findings findings');
  rowSizes.push('1px', `${findings}px`);
  return {
    mode,
    columns: `${sessions}px 1px minmax(0, 1fr)`,
    rows: rowSizes.join(' '),
    areas: gridAreas(areaRows),
    sessions,
    detail,
    timeline,
    events,
    findings,
    showDetail,
  };
}
