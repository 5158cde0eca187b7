// Panel: the timeline's time axis, labelled relative to the session start.
import { axisLabelPlacement } from '../view/axisLabel';
import { formatDuration } from '../view/format';
import { niceTicks, xOf, type TimeWindow } from '../view/timeWindow';

export function TimelineAxis({ window, origin, width }: { window: TimeWindow; origin: number; width: number }) {
  if (width <= 0) return <svg class="tl-axis" height="20" />;
  const { ticks } = niceTicks(window, origin, Math.max(2, Math.floor(width / 90)));
  return (
    <svg class="tl-axis" width={width} height="20" aria-hidden="true">
      {ticks.map((t) => {
        const x = Math.round(xOf(window, width, t)) + 0.5;
        const text = formatDuration(t - origin);
        const label = axisLabelPlacement(x, text, width);
        return (
          <g key={t}>
            <line x1={x} x2={x} y1="14" y2="20" class="tl-axis-tick" />
            <text x={label.x} y="12" text-anchor={label.anchor} class="tl-axis-label">
              {text}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** Vertical grid lines matching the axis, drawn behind the rows. */
export function gridLines(window: TimeWindow, origin: number, width: number): number[] {
  return niceTicks(window, origin, Math.max(2, Math.floor(width / 90))).ticks.map(
    (t) => Math.round(xOf(window, width, t)) + 0.5,
  );
}
