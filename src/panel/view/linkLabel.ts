// Panel (pure): where a reconnect link's "Last-Event-ID …" label goes: in the band under the resuming row's bar,
// starting at the link's elbow, shifted left to stay inside the plot and shortened (middle ellipsis) when the
// plot is narrower than the label.
import { middleEllipsis } from './format';
import { LINK_LABEL_BAND, ROW_HEIGHT, type LinkKind, type TimelineRow } from './timeline';

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

/** What each 2026-07-28 link says on the plot, and in its tooltip. */
export const LINK_WORDS: Readonly<Record<LinkKind, { label: string; title: string }>> = {
  retry: { label: 'retry with requestState', title: 'retried the input_required round (requestState)' },
  reissue: { label: 're-issued', title: 're-issued the request its broken stream lost' },
  task: { label: 'task follow-up', title: 'follows up the task this request created' },
};

/** A link's tooltip: which connection continued which, and how. */
export function linkTitle(
  from: string,
  to: string,
  kind: LinkKind | undefined,
  lastEventId: string | undefined,
): string {
  if (kind !== undefined) return `${from} → ${to}: ${LINK_WORDS[kind].title}`;
  return `${from} → ${to}: resumed with Last-Event-ID ${lastEventId ?? '(none)'}`;
}

export function linkLabel(
  lastEventId: string | undefined,
  anchorX: number,
  row: Pick<TimelineRow, 'y'>,
  plotWidth: number,
  /** A 2026-07-28 link (one logical request) says what joins the two connections instead of a cursor. */
  kind?: LinkKind,
): LinkLabel {
  const prefix = kind === undefined && lastEventId !== undefined ? 'Last-Event-ID ' : '';
  const room = Math.max(0, Math.floor((plotWidth - 2 * EDGE) / LABEL_CHAR_WIDTH) - prefix.length);
  const value =
    kind !== undefined
      ? LINK_WORDS[kind].label
      : lastEventId !== undefined
        ? middleEllipsis(lastEventId, Math.max(6, Math.min(32, room)))
        : 'resumed without Last-Event-ID';
  const width = (prefix.length + value.length) * LABEL_CHAR_WIDTH;
  const x = Math.max(EDGE, Math.min(anchorX - 2, plotWidth - EDGE - width));
  const top = row.y + ROW_HEIGHT;
  return { x, baseline: top + LINK_LABEL_BAND - 3, prefix, value, width, top };
}
