// Panel worker (pure): the events-table rows the UI thread asked for, cells formatted and the data cut to what a
// row shows, so the UI thread never holds more of an event than one row shows.
import type { EventView } from '../../core/model/types';
import type { Severity } from '../../core/guard/types';
import { eventCells } from '../view/eventRows';
import { dataLengthOf } from '../view/events';
import { findingChips } from '../view/findingChips';
import { findingKey, type PanelView } from '../view/model';
import { MAX_ROWS_PER_REQUEST, type ChipData, type EventRowData, type RowsWindow } from './messages';

/**
 * Characters of an event's data a row carries: a one-line cell shows about this much at most, and every character
 * drawn costs text shaping on each scroll frame. Whether the payload counts as truncated (the "show all" badge) is
 * the truncation size's decision; the cell clips whatever fits less.
 */
export const ROW_PREVIEW_CHARS = 240;

/**
 * A copy of `text` that holds nothing else. An event's data comes from decoding its raw bytes, and a slice of a
 * string in V8 points into the string it was cut from: a 240-character preview kept with a view would keep the
 * whole 4 MiB text of its event alive (measured: 20 such texts, doubling the worker's memory on 20 x 4 MiB).
 */
export function detached(text: string): string {
  return text.length < 16 ? text : (JSON.parse(JSON.stringify(text)) as string);
}

export function eventRowData(
  view: PanelView,
  event: EventView,
  shown: Record<Severity, boolean>,
  truncateBytes: number,
): EventRowData {
  const cells = eventCells(view, event, shown);
  const chips: ChipData[] = findingChips(cells.findings).map((chip) => {
    const first = view.analysis.findings[chip.first];
    return {
      severity: chip.severity,
      count: chip.count,
      rules: chip.rules,
      title: chip.title,
      first: first ? findingKey(first) : '',
    };
  });
  const truncated = dataLengthOf(event) > truncateBytes;
  const preview = Math.min(truncateBytes, ROW_PREVIEW_CHARS);
  return {
    eventIndex: event.index,
    connectionId: event.connectionId,
    start: event.start,
    time: cells.time,
    stream: cells.stream,
    resumption: cells.resumption,
    id: cells.id,
    type: cells.type,
    size: cells.size,
    method: cells.method,
    methodKind: cells.methodKind,
    ...(event.parseError !== undefined ? { problem: event.parseError } : {}),
    chips,
    data: detached(event.dataPreview(preview)),
    bytes: event.end - event.start,
    truncated,
  };
}

/** Rows [from, to) of the shown event list (`rows` holds event indexes), clamped to what exists. */
export function rowsWindow(
  view: PanelView,
  rows: ArrayLike<number>,
  range: { from: number; to: number },
  shown: Record<Severity, boolean>,
  truncateBytes: number,
  version: number,
): RowsWindow {
  const from = Math.max(0, Math.min(range.from, rows.length));
  const to = Math.max(from, Math.min(range.to, rows.length, from + MAX_ROWS_PER_REQUEST));
  const out: EventRowData[] = [];
  for (let position = from; position < to; position++) {
    const event = view.analysis.events.at(rows[position] as number);
    if (event) out.push(eventRowData(view, event, shown, truncateBytes));
  }
  return { version, from, rows: out };
}
