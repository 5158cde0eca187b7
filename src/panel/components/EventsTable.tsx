// Panel: the events table, virtualized: fixed row height, only the rows in view are in the DOM, and only those
// (plus a viewport either way) are on this thread at all: the worker sends them as the table scrolls. A row still
// on its way shows as a blank placeholder row (data-testid=event-row-loading) for the round trip.
import { plural } from '../../core/words';
import type { JSX, TargetedKeyboardEvent } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { EventRef, EventRowData } from '../analysis/messages';
import { useElementSize } from '../hooks/useElementSize';
import { eventColumns, type EventColumn } from '../view/eventColumns';
import { sameEvent, type Focus } from '../view/focus';
import { formatBytes, middleEllipsis } from '../view/format';
import type { RowSource } from '../view/rowCache';
import { useRowSnapshot } from '../hooks/useRowSnapshot';
import { memo } from 'preact/compat';
import { moveIndex, scrollToReveal, virtualWindow } from '../view/virtualWindow';
import { SeverityIcon } from './Icon';

export const EVENT_ROW_HEIGHT = 20;
/** Rows drawn beyond the viewport on each side: enough for a wheel notch, few enough to keep a frame cheap. */
const OVERSCAN = 4;

export interface EventsTableProps {
  rows: RowSource;
  /** Events in the analysis, before the session choice and the filter. */
  totalEvents: number;
  focus: Focus;
  onSelectEvent(event: EventRef): void;
  onSelectFinding(key: string): void;
  /** "show all" on a truncated payload: selects the event and loads its whole payload. */
  onShowAll(event: EventRef): void;
}

interface Layout {
  has(c: EventColumn): boolean;
  idChars: number;
}

export const EventsTable = memo(function EventsTable(props: EventsTableProps) {
  const { totalEvents, focus, onSelectEvent, onSelectFinding, onShowAll } = props;
  const rows = useRowSnapshot(props.rows);
  const [bodyRef, { height }] = useElementSize<HTMLDivElement>();
  const [sectionRef, { width: outerWidth }] = useElementSize<HTMLElement>();
  const [spacerRef, { width }] = useElementSize<HTMLDivElement>();
  const { columns, widths, idChars } = eventColumns(width > 0 ? width : 1000);
  // The head spans the body's scrollbar too: pad it by that much so the columns line up.
  const gutter = width > 0 ? Math.max(0, outerWidth - width) : 0;
  const columnKey = columns.join(' ');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- columnKey stands for columns (a new array each render)
  const layout = useMemo((): Layout => ({ has: (c) => columns.includes(c), idChars }), [columnKey, idChars]);
  // Cells have fixed widths from these variables (set once here, not per row): a row is a flex line of fixed
  // boxes, the cheapest layout there is, which is what a scroll frame redoes for every row it rewrites.
  const columnStyle: Record<string, string> = {};
  for (const c of columns) columnStyle[`--w-${c}`] = `${widths[c] ?? 0}px`;
  const [scrollTop, setScrollTop] = useState(0);
  const focusPosition = useRef<number | undefined>(undefined);
  /** A keyboard move to a row not held yet: selected when it arrives. */
  const pending = useRef<number | undefined>(undefined);
  const win = virtualWindow(scrollTop, height, EVENT_ROW_HEIGHT, rows.count, OVERSCAN);
  const selectedPosition = focus.position;
  const flinging = useFling(win.first, win.last);

  // Ask the worker for the rows in view (and the windows the scroll heads for) that this thread does not hold,
  // before this frame is painted, so they can be here by the next one.
  useLayoutEffect(() => {
    if (height > 0) rows.ensure(win.first, win.last);
  }, [rows, win.first, win.last, height]);

  // Reveal the selection wherever it was made (timeline, findings, keyboard).
  useEffect(() => {
    const body = bodyRef.current;
    if (!body || selectedPosition < 0) return;
    const top = scrollToReveal(selectedPosition, body.scrollTop, height, EVENT_ROW_HEIGHT);
    if (top === body.scrollTop) return;
    body.scrollTop = top;
    setScrollTop(body.scrollTop);
  }, [bodyRef, selectedPosition, height]);

  const choose = (position: number): boolean => {
    const row = rows.at(position);
    if (!row) return false;
    focusPosition.current = position;
    onSelectEvent(row);
    return true;
  };

  useEffect(() => {
    const position = pending.current;
    if (position !== undefined && choose(position)) pending.current = undefined;
    const focused = focusPosition.current;
    if (focused === undefined) return;
    const element = bodyRef.current?.querySelector<HTMLElement>(`[data-position="${focused}"]`);
    if (!element) return;
    focusPosition.current = undefined;
    element.focus();
  });

  const onKeyDown = (e: TargetedKeyboardEvent<HTMLDivElement>) => {
    const next = moveIndex(
      e.key,
      selectedPosition >= 0 ? selectedPosition : undefined,
      rows.count,
      Math.floor(height / EVENT_ROW_HEIGHT) - 1,
    );
    if (next === undefined) return;
    e.preventDefault();
    if (choose(next)) return;
    pending.current = next;
    const body = bodyRef.current;
    if (body) body.scrollTop = scrollToReveal(next, body.scrollTop, height, EVENT_ROW_HEIGHT);
    rows.ensure(next, next + 1);
  };

  // One object for the rows' handlers, stable across renders, so a row whose content did not change is not redrawn.
  const latest = useRef({ onSelectEvent, onSelectFinding, onShowAll });
  latest.current = { onSelectEvent, onSelectFinding, onShowAll };
  const actions = useMemo(
    (): RowActions => ({
      select(position, row) {
        focusPosition.current = position;
        latest.current.onSelectEvent(row);
      },
      selectFinding: (key) => latest.current.onSelectFinding(key),
      showAll: (row) => latest.current.onShowAll(row),
    }),
    [],
  );

  const visible: JSX.Element[] = [];
  for (let position = win.first; position < win.last; position++) {
    // While the table jumps a window or more per frame (a fling, a scrollbar drag), rows are drawn as placeholders:
    // nobody reads them, and drawing thirty rows each frame would miss frames. They fill in once it slows down.
    const row = flinging ? undefined : rows.at(position);
    // Rows are keyed by their place in the window, not by event: scrolling rewrites the same elements' text
    // instead of building new ones, which keeps a frame's style and layout work small.
    const slot = position % Math.max(1, win.last - win.first);
    if (!row) {
      visible.push(<div key={slot} role="row" data-testid="event-row-loading" class="grid-row loading" />);
      continue;
    }
    const selected = sameEvent(focus.event, row);
    visible.push(
      <Row
        key={slot}
        row={row}
        position={position}
        layout={layout}
        selected={selected}
        focusable={selected || (selectedPosition < 0 && position === win.first)}
        actions={actions}
      />,
    );
  }

  return (
    <section ref={sectionRef} class="events" aria-label="Events" style={columnStyle}>
      <div class="grid-head" role="row" style={{ paddingRight: `${gutter}px` }}>
        <span class="c-time num">Time (ms)</span>
        {layout.has('stream') ? <span class="c-stream">Stream</span> : null}
        {layout.has('id') ? <span class="c-id">ID</span> : null}
        {layout.has('type') ? <span class="c-type">Type</span> : null}
        {layout.has('size') ? <span class="c-size num">Size</span> : null}
        <span class="c-method">Method / id</span>
        {layout.has('data') ? <span class="c-data">Data</span> : null}
        <span class="c-findings">Findings</span>
      </div>
      <div
        ref={bodyRef}
        class="grid-body"
        role="grid"
        aria-label={`${rows.count} events`}
        aria-rowcount={rows.count}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        onKeyDown={onKeyDown}
      >
        <div ref={spacerRef} class="grid-spacer" style={{ height: `${win.height}px` }}>
          <div class="grid-window" style={{ transform: `translateY(${win.offset}px)` }}>
            {visible}
          </div>
        </div>
        {rows.count === 0 ? (
          <div class="grid-empty">No events{totalEvents > 0 ? ' match the filter' : ' yet'}.</div>
        ) : null}
      </div>
    </section>
  );
});

/** How long the table must scroll less than a window per frame before rows are drawn again after a fling. */
const SETTLE_MS = 90;

/** True while the window moves by a whole window or more between renders, and SETTLE_MS after. */
function useFling(first: number, last: number): boolean {
  const previous = useRef(first);
  const [flinging, setFlinging] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const jumped = Math.abs(first - previous.current) >= Math.max(1, last - first);
  previous.current = first;
  useEffect(() => {
    if (!jumped) return;
    setFlinging(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setFlinging(false), SETTLE_MS);
  }, [first, jumped]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return flinging || jumped;
}

interface RowActions {
  select(position: number, row: EventRowData): void;
  selectFinding(key: string): void;
  showAll(row: EventRowData): void;
}

interface RowProps {
  row: EventRowData;
  position: number;
  layout: Layout;
  selected: boolean;
  focusable: boolean;
  actions: RowActions;
}

const Row = memo(function Row({ row, position, layout, selected, focusable, actions }: RowProps) {
  const { has } = layout;
  return (
    <div
      role="row"
      data-testid="event-row"
      data-position={position}
      data-event-index={row.eventIndex}
      aria-selected={selected}
      tabIndex={focusable ? 0 : -1}
      class={`grid-row ${selected ? 'selected' : ''} ${position % 2 ? 'odd' : ''}`}
      onClick={() => actions.select(position, row)}
    >
      <span role="gridcell" class="c-time num">
        {row.time}
      </span>
      {has('stream') ? (
        <span
          role="gridcell"
          class="c-stream mono"
          title={`stream ${row.stream}, connection ${row.connectionId}${row.resumption > 0 ? ` (resumption ${row.resumption})` : ''}`}
        >
          {row.stream}
          {row.resumption > 0 ? <span class="resumed"> ↻{row.resumption > 1 ? row.resumption : ''}</span> : null}
        </span>
      ) : null}
      {has('id') ? (
        <span role="gridcell" class="c-id mono" title={row.id}>
          {middleEllipsis(row.id, layout.idChars)}
        </span>
      ) : null}
      {has('type') ? (
        <span role="gridcell" class="c-type">
          {row.type}
        </span>
      ) : null}
      {has('size') ? (
        <span role="gridcell" class="c-size num">
          {row.size}
        </span>
      ) : null}
      <span role="gridcell" class={`c-method ${row.methodKind}`} title={row.problem ?? row.method}>
        {row.method}
      </span>
      {has('data') ? (
        <span role="gridcell" class="c-data">
          {row.truncated ? (
            <button
              type="button"
              tabIndex={-1}
              class="data-more"
              data-testid="show-all"
              title="The table shows the first part of this payload: show all of it in the details"
              onClick={(e) => {
                e.stopPropagation();
                actions.showAll(row);
              }}
            >
              truncated, {formatBytes(row.bytes)} · show all
            </button>
          ) : null}
          <span class="data-text mono">{row.data}</span>
        </span>
      ) : null}
      <span role="gridcell" class="c-findings">
        {row.chips.map((chip) => (
          <button
            type="button"
            key={chip.severity}
            tabIndex={-1}
            class={`chip sev-${chip.severity}`}
            data-rule={chip.rules.join(' ')}
            title={chip.title}
            aria-label={`${plural(chip.count, chip.severity)}: ${chip.rules.join(', ')}`}
            onClick={(e) => {
              e.stopPropagation();
              actions.selectFinding(chip.first);
            }}
          >
            <SeverityIcon severity={chip.severity} />
            <span class="num">{chip.count}</span>
          </button>
        ))}
      </span>
    </div>
  );
});
