// Panel: the timeline: a lane per stream, a row per connection, event ticks, torn tails, reconnect links, findings.
import { memo } from 'preact/compat';
import type { TargetedKeyboardEvent, TargetedPointerEvent, TargetedWheelEvent } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Focus } from '../view/focus';
import { ensureVisible, fitWindow, panBy, tOf, zoomAround, type TimeWindow } from '../view/timeWindow';
import { hitTest, type TimelineHit } from '../view/timelineHit';
import { GROUP_HEADER_HEIGHT, ROW_HEIGHT, type TimelineLayout } from '../view/timeline';
import { rowsOutOfView } from '../view/timelineScroll';
import { formatDuration } from '../view/format';
import { Icon } from './Icon';
import { TimelineAxis } from './TimelineAxis';
import { TimelinePlot } from './TimelinePlot';
import { useElementSize } from '../hooks/useElementSize';

/** Pane header, axis and borders around the lanes: the timeline's height is this plus the layout's. */
export const TIMELINE_CHROME = 24 + 20 + 2;

export interface TimelineProps {
  layout: TimelineLayout;
  /** Axis labels count from here (the session start). */
  origin: number;
  focus: Focus;
  /** Folded to its header: the panel is too short for even one lane (view/workspace.ts). */
  folded?: boolean;
  onHit(hit: TimelineHit): void;
}

const WHEEL_ZOOM = 0.0015;

export const Timeline = memo(function Timeline({ layout, origin, focus, folded = false, onHit }: TimelineProps) {
  const [plotRef, { width }] = useElementSize<HTMLDivElement>();
  const [scrollRef, { height: viewport }] = useElementSize<HTMLDivElement>();
  const [scrollTop, setScrollTop] = useState(0);
  const hidden = rowsOutOfView(layout.rows, scrollTop, viewport);
  // undefined = follow: the window tracks the whole capture as it grows; any zoom or pan pins it.
  const [pinned, setPinned] = useState<TimeWindow | undefined>(undefined);
  const bounds = useMemo(() => fitWindow(layout.start, layout.end), [layout.start, layout.end]);
  const view = pinned ?? bounds;
  const drag = useRef<{ x: number; window: TimeWindow; moved: boolean; id: number } | undefined>(undefined);

  // A pinned window pans to show a new selection (a followed one shows everything already).
  useEffect(() => {
    const time = focus.time;
    if (time !== undefined) setPinned((w) => (w ? ensureVisible(w, time, bounds) : w));
    // Keyed on the selection, not on `bounds`: a re-analysis must not drag a view the user panned away back to it.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new selection moves the view
  }, [focus.time, focus.event?.connectionId, focus.event?.start, focus.findingKey, focus.connectionId]);

  // Bring the selected connection's row into view when the lanes scroll.
  useEffect(() => {
    const el = scrollRef.current;
    const row = layout.rows.find((r) => r.connectionId === focus.connectionId);
    if (!el || !row || viewport <= 0) return;
    if (row.y < el.scrollTop) el.scrollTop = row.y;
    else if (row.y + row.height > el.scrollTop + viewport) el.scrollTop = row.y + row.height - viewport;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- not layout.rows: new lanes must not undo a scroll
  }, [scrollRef, focus.connectionId, viewport]);

  const zoom = (factor: number, anchor = (view.from + view.to) / 2) =>
    setPinned(zoomAround(view, factor, anchor, bounds));
  const pan = (fraction: number) => setPinned(panBy(view, fraction * (view.to - view.from), bounds));

  const onWheel = (e: TargetedWheelEvent<HTMLDivElement>) => {
    if (width <= 0) return;
    const rect = e.currentTarget.getBoundingClientRect();
    const horizontal = e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY);
    // With more lanes than fit, a plain wheel scrolls them (ctrl/cmd + wheel zooms); otherwise the wheel zooms.
    const scroller = e.currentTarget.parentElement;
    const lanesOverflow = scroller !== null && scroller.scrollHeight > scroller.clientHeight;
    if (!horizontal && lanesOverflow && !e.ctrlKey && !e.metaKey) return;
    e.preventDefault();
    if (horizontal) pan((e.shiftKey ? e.deltaY : e.deltaX) / width);
    else zoom(Math.exp(e.deltaY * WHEEL_ZOOM * (e.ctrlKey ? 2 : 1)), tOf(view, width, e.clientX - rect.left));
  };
  const onPointerDown = (e: TargetedPointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    drag.current = { x: e.clientX, window: view, moved: false, id: e.pointerId };
  };
  const onPointerMove = (e: TargetedPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId || width <= 0) return;
    const dx = e.clientX - d.x;
    if (!d.moved && Math.abs(dx) < 3) return;
    if (!d.moved) e.currentTarget.setPointerCapture(e.pointerId);
    d.moved = true;
    setPinned(panBy(d.window, (-dx / width) * (d.window.to - d.window.from), bounds));
  };
  const onPointerUp = (e: TargetedPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    drag.current = undefined;
    if (!d || d.moved) return;
    const rect = e.currentTarget.getBoundingClientRect();
    const hit = hitTest(layout, view, width, e.clientX - rect.left, e.clientY - rect.top);
    if (hit) onHit(hit);
  };
  const onKeyDown = (e: TargetedKeyboardEvent<HTMLDivElement>) => {
    const actions: Record<string, () => void> = {
      '+': () => zoom(0.5),
      '=': () => zoom(0.5),
      '-': () => zoom(2),
      '0': () => setPinned(undefined),
      ArrowLeft: () => pan(-0.1),
      ArrowRight: () => pan(0.1),
    };
    const action = actions[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  };

  return (
    <section class="timeline" data-testid="timeline" aria-label="Timeline">
      <div class="pane-header">
        <span class="pane-title">Timeline</span>
        {folded ? (
          <span
            class="pane-hint num"
            title="The panel is too short for the lanes: drag the splitter below the timeline, or make DevTools taller"
          >
            {layout.rows.length} row{layout.rows.length === 1 ? '' : 's'} folded · drag down to show
          </span>
        ) : (
          <span class="pane-hint num">{formatDuration(view.to - view.from)} shown</span>
        )}
        {folded ? null : hidden.below > 0 ? (
          <button
            type="button"
            class="tl-more num"
            title="Scroll the lanes to the next rows (or drag the splitter below the timeline to make it taller)"
            onClick={() => {
              const el = scrollRef.current;
              if (el && hidden.nextBelowTop !== undefined)
                el.scrollTop = Math.max(hidden.nextBelowTop, el.scrollTop + ROW_HEIGHT);
            }}
          >
            ▾ {hidden.below} more row{hidden.below === 1 ? '' : 's'}
          </button>
        ) : hidden.above > 0 ? (
          <span class="pane-hint num">
            {hidden.above} row{hidden.above === 1 ? '' : 's'} above
          </span>
        ) : null}
        <span class="tb-spacer" />
        {folded ? null : (
          <>
            <button type="button" class="tb-button" title="Zoom in (+)" onClick={() => zoom(0.5)}>
              <Icon name="zoom-in" />
            </button>
            <button type="button" class="tb-button" title="Zoom out (−)" onClick={() => zoom(2)}>
              <Icon name="zoom-out" />
            </button>
            <button
              type="button"
              class={`tb-button ${pinned ? '' : 'on'}`}
              title="Fit all and follow (0)"
              aria-pressed={!pinned}
              onClick={() => setPinned(undefined)}
            >
              <Icon name="fit" />
            </button>
          </>
        )}
      </div>
      {/* Folded, the lanes stay mounted (they keep their zoom and scroll) but out of reach of the keyboard. */}
      <div class="tl-body" inert={folded}>
        <div class="tl-labels-head" />
        <div class="tl-axis-wrap">
          <TimelineAxis window={view} origin={origin} width={width} />
        </div>
        <div
          ref={scrollRef}
          class={`tl-scroll ${hidden.below > 0 ? 'more-below' : ''} ${hidden.above > 0 ? 'more-above' : ''}`}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        >
          <div class="tl-labels" style={{ height: `${layout.height}px` }}>
            {layout.groups.map((g) => (
              <div
                key={`g${g.sessionKey}`}
                class="tl-group-label"
                style={{ top: `${g.y}px`, height: `${GROUP_HEADER_HEIGHT}px` }}
                title={g.sessionKey}
              >
                {g.label}
              </div>
            ))}
            {layout.rows.map((row) => (
              <button
                type="button"
                key={row.connectionId}
                class={`tl-row-label ${focus.connectionId === row.connectionId ? 'selected' : ''}`}
                style={{ top: `${row.y}px`, height: `${ROW_HEIGHT}px` }}
                title={`${row.label} (${row.connectionId})`}
                onClick={() => onHit({ kind: 'connection', connectionId: row.connectionId })}
              >
                {row.label}
              </button>
            ))}
          </div>
          <div
            ref={plotRef}
            class="tl-plot"
            tabIndex={0}
            role="img"
            aria-label="Connections over time. Wheel or +/- to zoom, drag or arrows to pan, 0 to fit; click to select."
            style={{ height: `${layout.height}px` }}
            onWheel={onWheel}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onKeyDown={onKeyDown}
          >
            {width > 0 ? (
              <TimelinePlot layout={layout} origin={origin} window={view} width={width} focus={focus} />
            ) : null}
          </div>
        </div>
      </div>
    </section>
  );
});
