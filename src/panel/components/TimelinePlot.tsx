// Panel: the SVG of the timeline rows. Everything here is geometry; the layout and window decide what is where.
import type { Focus } from '../view/focus';
import { pixelTicks, xOf, type TimeWindow } from '../view/timeWindow';
import { BAR_HEIGHT, BAR_TOP, MARKER_BOTTOM, MIN_TORN_WIDTH } from '../view/timelineHit';
import type { QuietStretch } from '../view/quiet';
import { LANE_GAP, ROW_HEIGHT, type TimelineLayout, type TimelineRow } from '../view/timeline';
import { formatDuration } from '../view/format';
import { linkLabel, linkTitle } from '../view/linkLabel';
import { gridLines } from './TimelineAxis';

interface PlotProps {
  layout: TimelineLayout;
  origin: number;
  window: TimeWindow;
  width: number;
  focus: Focus;
}

export function TimelinePlot({ layout, origin, window, width, focus }: PlotProps) {
  const x = (t: number) => xOf(window, width, t);
  const selected = layout.rows.find((r) => r.connectionId === focus.connectionId);
  return (
    <svg class="tl-svg" width={width} height={layout.height}>
      <defs>
        <pattern id="tl-hatch" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="4" height="4" class="tl-hatch-bg" />
          <line x1="0" y1="0" x2="0" y2="4" class="tl-hatch-line" />
        </pattern>
        <pattern id="tl-gap-hatch" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">
          <rect width="5" height="5" class="tl-gap-bg" />
          <line x1="0" y1="0" x2="0" y2="5" class="tl-gap-line" />
        </pattern>
        <marker id="tl-arrow" viewBox="0 0 6 6" refX="5" refY="3" markerWidth="6" markerHeight="6" orient="auto">
          <path d="M0 0 6 3 0 6Z" class="tl-arrow-head" />
        </marker>
      </defs>
      {gridLines(window, origin, width).map((gx) => (
        <line key={gx} class="tl-grid" x1={gx} x2={gx} y1="0" y2={layout.height} />
      ))}
      {selected ? <rect class="tl-row-selected" x="0" width={width} y={selected.y} height={selected.height} /> : null}
      {layout.lanes.map((lane) => {
        // Half way into the gap below the lane, on a pixel centre so the 1px line stays sharp.
        const y = lane.y + lane.height + LANE_GAP / 2 + 0.5;
        return <line key={lane.key} class="tl-lane-sep" x1="0" x2={width} y1={y} y2={y} />;
      })}
      {layout.rows.map((row) => (
        <Row
          key={row.connectionId}
          row={row}
          x={x}
          window={window}
          width={width}
          selectedStart={focus.event?.connectionId === row.connectionId ? focus.event.start : undefined}
        />
      ))}
      {layout.links.map((link) => {
        const from = layout.rows[link.fromRow];
        const to = layout.rows[link.toRow];
        if (!from || !to) return null;
        const x0 = Math.max(x(link.fromTime), from.torn ? x(from.torn.from) + MIN_TORN_WIDTH : -Infinity) + 3;
        const x1 = x(link.toTime);
        const y0 = from.y + BAR_TOP + BAR_HEIGHT / 2;
        const y1 = to.y + BAR_TOP + BAR_HEIGHT / 2;
        const elbow = Math.min(x0 + 6, Math.max(x1 - 4, x0));
        // The label goes in the band under the resuming row's bar: markers sit above bars, so nothing overdraws it.
        const label = linkLabel(link.lastEventId, elbow, to, width, link.kind);
        return (
          <g
            key={`${link.fromRow}-${link.toRow}`}
            class={`tl-link ${link.kind ? `tl-link-${link.kind}` : ''}`}
            data-testid="reconnect-link"
            data-link-kind={link.kind ?? 'resume'}
            data-last-event-id={link.lastEventId ?? ''}
          >
            <title>{linkTitle(from.connectionId, to.connectionId, link.kind, link.lastEventId)}</title>
            <path
              d={`M${x0} ${y0} H${elbow} V${y1} H${Math.max(x1 - 1, elbow + 4)}`}
              class="tl-link-path"
              marker-end="url(#tl-arrow)"
            />
            <text x={label.x} y={label.baseline} class="tl-link-label">
              {label.prefix ? <tspan class="tl-link-prefix">{label.prefix}</tspan> : null}
              <tspan>{label.value}</tspan>
            </text>
          </g>
        );
      })}
      {layout.faults.map((f, i) => {
        const row = layout.rows[f.rowIndex];
        if (!row) return null;
        const fx = Math.round(x(f.time)) + 0.5;
        // A line through the row where the fault struck, a bolt on the bar just before it (finding markers sit
        // above the bar, the cut's cross after it): what the page got from there on is the menu's doing.
        const mid = row.y + BAR_TOP + BAR_HEIGHT / 2;
        return (
          <g key={`fault-${i}`} class="tl-fault" data-testid="fault-marker" data-fault={f.fault}>
            <title>{`Break: ${f.fault} (${f.note})`}</title>
            <line class="tl-fault-line" x1={fx} x2={fx} y1={row.y + 2} y2={row.y + ROW_HEIGHT - 1} />
            <path class="tl-fault-bolt" d={`M${fx - 3} ${mid - 7}l-5 8h4l-1.5 6 6.5 -8.5h-4l1.5 -5.5z`} />
          </g>
        );
      })}
      {layout.gaps.map((g, i) => {
        const row = layout.rows[g.rowIndex];
        if (!row) return null;
        // The part of the bar whose bytes the capture lacks, hatched over the bar (at least a few pixels wide).
        const gx = Math.round(x(g.from));
        const gw = Math.max(4, Math.round(x(g.to)) - gx);
        return (
          <rect
            key={`gap-${i}`}
            class="tl-gap"
            data-testid="capture-gap"
            data-offset={g.offset}
            data-bytes={g.bytes}
            data-cause={g.cause}
            x={gx}
            y={row.y + BAR_TOP - 2}
            width={gw}
            height={BAR_HEIGHT + 4}
            fill="url(#tl-gap-hatch)"
          >
            <title>{`Not recorded: ${g.bytes} bytes at body offset ${g.offset} (${g.cause})`}</title>
          </rect>
        );
      })}
      {layout.markers.map((m) => {
        const row = layout.rows[m.rowIndex];
        if (!row) return null;
        const mx = Math.round(x(m.time)) + 0.5;
        const selected = focus.findingKey === m.key;
        return (
          <path
            key={m.findingIndex}
            class={`tl-marker sev-${m.severity} ${selected ? 'selected' : ''}`}
            d={`M${mx - 4.5} ${row.y + 0.5} H${mx + 4.5} L${mx} ${row.y + MARKER_BOTTOM}Z`}
          />
        );
      })}
    </svg>
  );
}

function Row({
  row,
  x,
  window,
  width,
  selectedStart,
}: {
  row: TimelineRow;
  x: (t: number) => number;
  window: TimeWindow;
  width: number;
  /** Byte offset of the selected event, when it is on this row. */
  selectedStart: number | undefined;
}) {
  const top = row.y + BAR_TOP;
  const x0 = x(row.start);
  const xEnd = Math.max(x(row.end), x0 + 1);
  const failed = row.status !== undefined && (row.status < 200 || row.status >= 300);
  const cut = row.endReason === 'network-error' || row.endReason === 'aborted';
  const tornX0 = row.torn ? x(row.torn.from) : undefined;
  const tornX1 = tornX0 !== undefined ? Math.max(xEnd, tornX0 + MIN_TORN_WIDTH) : undefined;
  const bodyEnd = tornX0 ?? xEnd;
  const xHead = row.responseTime !== undefined ? Math.min(Math.max(x(row.responseTime), x0), bodyEnd) : x0;
  let ticks = '';
  for (const [tx] of pixelTicks(row.ticks, window, width)) ticks += `M${tx + 0.5} ${top}v${BAR_HEIGHT}`;
  const selectedTick = selectedStart !== undefined ? row.tickStarts.indexOf(selectedStart) : -1;
  const selectedX = selectedTick >= 0 ? Math.round(x(row.ticks[selectedTick] as number)) + 0.5 : undefined;
  const classes = ['tl-bar', failed ? 'failed' : '', row.endReason === 'open' ? 'open' : ''].join(' ');
  return (
    <g class="tl-row" data-connection={row.connectionId}>
      {xHead > x0 ? <rect class="tl-wait" x={x0} y={top} width={xHead - x0} height={BAR_HEIGHT} /> : null}
      <rect class={classes} x={xHead} y={top} width={Math.max(1, bodyEnd - xHead)} height={BAR_HEIGHT}>
        <title>{barTitle(row)}</title>
      </rect>
      {tornX0 !== undefined && tornX1 !== undefined ? (
        <rect class="tl-torn" x={tornX0} y={top} width={tornX1 - tornX0} height={BAR_HEIGHT}>
          <title>{`Torn: ${row.torn?.bytes ?? 0} bytes of an undispatched event when the connection ended`}</title>
        </rect>
      ) : null}
      {row.quiet?.map((q) => (
        <Quiet key={q.from} stretch={q} x={x} top={top} />
      ))}
      {ticks ? <path class="tl-ticks" d={ticks} /> : null}
      {selectedX !== undefined ? (
        <path class="tl-tick-selected" d={`M${selectedX} ${top - 2}v${BAR_HEIGHT + 4}`} />
      ) : null}
      {cut ? (
        <path
          class="tl-cut"
          d={`M${(tornX1 ?? xEnd) + 1} ${top + 1}l4 ${BAR_HEIGHT - 2}m0 -${BAR_HEIGHT - 2}l-4 ${BAR_HEIGHT - 2}`}
        />
      ) : null}
    </g>
  );
}

/** Narrower than this, a quiet stretch is not drawn; wider than QUIET_LABEL_PX, it says how long it lasted. */
const QUIET_MIN_PX = 6;
const QUIET_LABEL_PX = 64;

/**
 * A stretch with no byte: the bar thins to a dashed line there, so silence reads as a hole in the flow; amber and
 * "waiting" when it runs to now while a request waits on the connection (a hang as it happens).
 */
function Quiet({ stretch, x, top }: { stretch: QuietStretch; x: (t: number) => number; top: number }) {
  const x0 = Math.round(x(stretch.from)) + 1;
  const x1 = Math.round(x(stretch.to)) - (stretch.waiting ? 0 : 1);
  if (x1 - x0 < QUIET_MIN_PX) return null;
  const mid = top + BAR_HEIGHT / 2;
  const spent = formatDuration(stretch.to - stretch.from);
  const words = stretch.waiting ? `waiting, quiet ${spent}` : `quiet ${spent}`;
  return (
    <g
      class={`tl-quiet ${stretch.waiting ? 'waiting' : ''}`}
      data-testid="quiet-stretch"
      data-waiting={stretch.waiting ? 'true' : 'false'}
    >
      <title>{`${stretch.waiting ? 'Still waiting: no byte' : 'No byte'} for ${spent}`}</title>
      <rect class="tl-quiet-gap" x={x0} y={top} width={x1 - x0} height={BAR_HEIGHT} />
      <line class="tl-quiet-line" x1={x0} x2={x1} y1={mid} y2={mid} />
      {x1 - x0 >= QUIET_LABEL_PX ? (
        <text class="tl-quiet-label" x={(x0 + x1) / 2} y={mid + 3}>
          {words}
        </text>
      ) : null}
    </g>
  );
}

function barTitle(row: TimelineRow): string {
  const status = row.status !== undefined ? ` ${row.status}` : ' (no response)';
  const ended =
    row.endReason === 'open' ? 'still open' : `${row.endReason} after ${formatDuration(row.end - row.start)}`;
  return `${row.label} (${row.connectionId})${status}, ${row.ticks.length} events, ${ended}`;
}
