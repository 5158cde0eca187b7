// Panel (pure): how the workspace is cut into panes for the space DevTools gives it. Wide: sessions | timeline over
// events | detail, findings along the bottom. Narrow (DevTools docked at the side, ~500–900 px): a slim sessions
// column, and the detail stacks under the events table, only while something is selected.

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
  findings: number;
  showDetail: boolean;
}

export const PANE_HEADER = 24;
export const FINDING_ROW = 20;
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

export function workspaceLayout(
  width: number,
  height: number,
  sizes: PaneSizes,
  content: PaneContent,
): WorkspaceLayout {
  const mode = workspaceMode(width);
  const findings = findingsHeight(content.findings, height, sizes.findings);
  // Stacked under a narrow table, the detail needs the room more than the lanes do.
  const stacked = mode === 'narrow' && content.detailOpen;
  const timeline = timelineHeight(content.timeline, height - findings, sizes.timeline, stacked ? 0.28 : 0.4);
  if (mode === 'wide') {
    const sessions = clamp(sizes.sessions, 120, Math.min(480, width * 0.3));
    const detail = clamp(sizes.detail, 220, Math.max(220, width - sessions - 2 - MIN_CENTER));
    return {
      mode,
      columns: `${sessions}px 1px minmax(${MIN_CENTER}px, 1fr) 1px ${detail}px`,
      rows: `${timeline}px 1px minmax(80px, 1fr) 1px ${findings}px`,
      areas: gridAreas(WIDE_AREAS),
      sessions,
      detail,
      timeline,
      findings,
      showDetail: true,
    };
  }
  // Narrow: sessions shrink to a quarter (at most their chosen width); the detail takes the lower part of the centre.
  const sessions = clamp(Math.min(sizes.sessions, Math.floor(width * 0.25)), 110, 200);
  const showDetail = content.detailOpen;
  const centre = height - findings - 2;
  const detail = showDetail
    ? clamp(sizes.detailHeight ?? Math.floor(centre * 0.45), 100, Math.max(100, centre - timeline - 80))
    : 0;
  const areaRows = ['sessions split-left timeline', 'sessions split-left split-mid', 'sessions split-left events'];
  const rowSizes = [`${timeline}px`, '1px', 'minmax(60px, 1fr)'];
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
    findings,
    showDetail,
  };
}
