// Panel (pure): which events-table columns fit the table's width. Time, method and findings always stay; the
// others leave, least telling first, when the table is narrow (DevTools docked at the side).

export type EventColumn = 'time' | 'stream' | 'id' | 'type' | 'size' | 'method' | 'data' | 'findings';

interface ColumnSpec {
  key: EventColumn;
  /** Minimum width in px; `grow` columns share what is left. */
  min: number;
  grow?: number;
}

const specs: readonly ColumnSpec[] = [
  { key: 'time', min: 80 },
  { key: 'stream', min: 64 },
  { key: 'id', min: 96, grow: 1.2 },
  { key: 'type', min: 72 },
  { key: 'size', min: 64 },
  { key: 'method', min: 130, grow: 1.5 },
  // Wide enough for a truncated payload's "truncated, 4.2 MB · show all" and the head of its text.
  { key: 'data', min: 170, grow: 1.2 },
  { key: 'findings', min: 70 },
];

/** Dropped in this order as the width shrinks (type is nearly always "message"; the detail shows the data whole). */
const dropOrder: readonly EventColumn[] = ['type', 'data', 'size', 'stream', 'id'];

export interface EventColumns {
  columns: EventColumn[];
  template: string;
  /** Each shown column's width in whole px (minimum plus its share of what is left), for fixed-width cells. */
  widths: Partial<Record<EventColumn, number>>;
  /** How many characters of an event id fit its column (11px monospace), for a middle ellipsis instead of a cut. */
  idChars: number;
}

const MONO_CHAR = 6.7;
const CELL_PADDING = 13;

export function eventColumns(width: number): EventColumns {
  let shown = specs.slice();
  const total = () => shown.reduce((sum, s) => sum + s.min, 0);
  for (const key of dropOrder) {
    if (total() <= width) break;
    shown = shown.filter((s) => s.key !== key);
  }
  const free = Math.max(0, width - total());
  const growTotal = shown.reduce((sum, s) => sum + (s.grow ?? 0), 0);
  const id = shown.find((s) => s.key === 'id');
  const idWidth = id ? id.min + (growTotal > 0 ? (free * (id.grow ?? 0)) / growTotal : 0) : 0;
  const widths: Partial<Record<EventColumn, number>> = {};
  let given = 0;
  shown.forEach((s, i) => {
    // The last column takes the rounding remainder, so the cells fill the row exactly.
    const w =
      i === shown.length - 1
        ? Math.max(s.min, width - given)
        : Math.floor(s.min + (growTotal > 0 ? (free * (s.grow ?? 0)) / growTotal : 0));
    widths[s.key] = w;
    given += w;
  });
  return {
    columns: shown.map((s) => s.key),
    template: shown.map((s) => (s.grow ? `minmax(${s.min}px, ${s.grow}fr)` : `${s.min}px`)).join(' '),
    widths,
    idChars: Math.max(6, Math.floor((idWidth - CELL_PADDING) / MONO_CHAR)),
  };
}

/** Sum of the minimum widths of a set of columns (what the template needs before growing). */
export function columnsMinWidth(columns: readonly EventColumn[]): number {
  return specs.filter((s) => columns.includes(s.key)).reduce((sum, s) => sum + s.min, 0);
}
