// Panel (pure): where a reconnect link's "Last-Event-ID …" label goes: in the band under the resuming row's bar,
// starting at the link's elbow, shifted left to stay inside the plot and shortened (middle ellipsis) when the
// plot is narrower than the label.
import { middleEllipsis } from './format';
import { LINK_LABEL_BAND, ROW_HEIGHT, type TimelineRow } from './timeline';

/** Advance of one character of the 10px monospace label. */
export const LABEL_CHAR_WIDTH = 6.1;
const EDGE = 4;

export interface LinkLabel {
  /** Left edge and baseline, px in the plot. */
  x: number;
  baseline: number;
  prefix: string;
  value: string;
  width: number;
  /** The band the label occupies: [top, top + LINK_LABEL_BAND). */
  top: number;
}

export function linkLabel(
  lastEventId: string | undefined,
  anchorX: number,
  row: Pick<TimelineRow, 'y'>,
  plotWidth: number,
): LinkLabel {
  const prefix = lastEventId !== undefined ? 'Last-Event-ID ' : '';
  const room = Math.max(0, Math.floor((plotWidth - 2 * EDGE) / LABEL_CHAR_WIDTH) - prefix.length);
  const value =
    lastEventId !== undefined
      ? middleEllipsis(lastEventId, Math.max(6, Math.min(32, room)))
      : 'resumed without Last-Event-ID';
  const width = (prefix.length + value.length) * LABEL_CHAR_WIDTH;
  const x = Math.max(EDGE, Math.min(anchorX - 2, plotWidth - EDGE - width));
  const top = row.y + ROW_HEIGHT;
  return { x, baseline: top + LINK_LABEL_BAND - 3, prefix, value, width, top };
}
