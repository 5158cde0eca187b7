// Panel: the events table, virtualized: fixed row height, only the rows in view are in the DOM.
import type { JSX, TargetedKeyboardEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Severity } from '../../core/guard/types';
import { useElementSize } from '../hooks/useElementSize';
import { eventColumns, type EventColumn } from '../view/eventColumns';
import { eventCells, positionOf } from '../view/eventRows';
import { findingChips } from '../view/findingChips';
import { middleEllipsis } from '../view/format';
import type { PanelView } from '../view/model';
import { moveIndex, scrollToReveal, virtualWindow } from '../view/virtualWindow';
import { SeverityIcon } from './Icon';

export const EVENT_ROW_HEIGHT = 20;

export interface EventsTableProps {
  view: PanelView;
  rows: readonly number[];
  shown: Record<Severity, boolean>;
  selectedEvent: number | undefined;
  onSelectEvent(eventIndex: number): void;
  onSelectFinding(findingIndex: number): void;
}

export function EventsTable({ view, rows, shown, selectedEvent, onSelectEvent, onSelectFinding }: EventsTableProps) {
  const [bodyRef, { height }] = useElementSize<HTMLDivElement>();
  const [sectionRef, { width: outerWidth }] = useElementSize<HTMLElement>();
  const [spacerRef, { width }] = useElementSize<HTMLDivElement>();
  const { columns, template, idChars } = eventColumns(width > 0 ? width : 1000);
  // The head spans the body's scrollbar too: pad it by that much so the columns line up.
  const gutter = width > 0 ? Math.max(0, outerWidth - width) : 0;
  const has = (c: EventColumn) => columns.includes(c);
  const gridStyle = { gridTemplateColumns: template };
  const [scrollTop, setScrollTop] = useState(0);
  const focusPosition = useRef<number | undefined>(undefined);
  const selectedPosition = selectedEvent !== undefined ? positionOf(rows, selectedEvent) : -1;

  // Reveal the selection wherever it was made (timeline, findings, keyboard).
  useEffect(() => {
    const body = bodyRef.current;
    if (!body || selectedPosition < 0) return;
    const top = scrollToReveal(selectedPosition, body.scrollTop, height, EVENT_ROW_HEIGHT);
    if (top === body.scrollTop) return;
    body.scrollTop = top;
    setScrollTop(body.scrollTop);
  }, [bodyRef, selectedPosition, height]);

  useEffect(() => {
    const position = focusPosition.current;
    if (position === undefined) return;
    focusPosition.current = undefined;
    bodyRef.current?.querySelector<HTMLElement>(`[data-position="${position}"]`)?.focus();
  });

  const onKeyDown = (e: TargetedKeyboardEvent<HTMLDivElement>) => {
    const next = moveIndex(
      e.key,
      selectedPosition >= 0 ? selectedPosition : undefined,
      rows.length,
      Math.floor(height / EVENT_ROW_HEIGHT) - 1,
    );
    if (next === undefined) return;
    e.preventDefault();
    const eventIndex = rows[next];
    if (eventIndex === undefined) return;
    focusPosition.current = next;
    onSelectEvent(eventIndex);
  };

  const win = virtualWindow(scrollTop, height, EVENT_ROW_HEIGHT, rows.length);
  const visible: JSX.Element[] = [];
  for (let position = win.first; position < win.last; position++) {
    const event = view.analysis.events[rows[position] as number];
    if (!event) continue;
    const cells = eventCells(view, event, shown);
    const selected = event.index === selectedEvent;
    visible.push(
      <div
        key={event.index}
        role="row"
        data-testid="event-row"
        data-position={position}
        data-event-index={event.index}
        aria-selected={selected}
        tabIndex={selected || (selectedPosition < 0 && position === win.first) ? 0 : -1}
        class={`grid-row ${selected ? 'selected' : ''} ${position % 2 ? 'odd' : ''}`}
        style={gridStyle}
        onClick={() => onSelectEvent(event.index)}
      >
        <span role="gridcell" class="c-time num">
          {cells.time}
        </span>
        {has('stream') ? (
          <span
            role="gridcell"
            class="c-stream mono"
            title={`stream ${event.streamId}, connection ${event.connectionId}${cells.resumption > 0 ? ` (resumption ${cells.resumption})` : ''}`}
          >
            {cells.stream}
            {cells.resumption > 0 ? (
              <span class="resumed"> ↻{cells.resumption > 1 ? cells.resumption : ''}</span>
            ) : null}
          </span>
        ) : null}
        {has('id') ? (
          <span role="gridcell" class="c-id mono" title={cells.id}>
            {middleEllipsis(cells.id, idChars)}
          </span>
        ) : null}
        {has('type') ? (
          <span role="gridcell" class="c-type">
            {cells.type}
          </span>
        ) : null}
        {has('size') ? (
          <span role="gridcell" class="c-size num">
            {cells.size}
          </span>
        ) : null}
        <span role="gridcell" class={`c-method ${cells.methodKind}`} title={event.parseError ?? cells.method}>
          {cells.method}
        </span>
        <span role="gridcell" class="c-findings">
          {findingChips(cells.findings).map((chip) => (
            <button
              type="button"
              key={chip.severity}
              tabIndex={-1}
              class={`chip sev-${chip.severity}`}
              data-rule={chip.rules.join(' ')}
              title={chip.title}
              aria-label={`${chip.count} ${chip.severity}${chip.count === 1 ? '' : 's'}: ${chip.rules.join(', ')}`}
              onClick={(e) => {
                e.stopPropagation();
                onSelectFinding(chip.first);
              }}
            >
              <SeverityIcon severity={chip.severity} />
              <span class="num">{chip.count}</span>
            </button>
          ))}
        </span>
      </div>,
    );
  }

  return (
    <section ref={sectionRef} class="events" aria-label="Events">
      <div class="grid-head" role="row" style={{ ...gridStyle, paddingRight: `${gutter}px` }}>
        <span class="c-time num">Time (ms)</span>
        {has('stream') ? <span class="c-stream">Stream</span> : null}
        {has('id') ? <span class="c-id">ID</span> : null}
        {has('type') ? <span class="c-type">Type</span> : null}
        {has('size') ? <span class="c-size num">Size</span> : null}
        <span class="c-method">Method / id</span>
        <span class="c-findings">Findings</span>
      </div>
      <div
        ref={bodyRef}
        class="grid-body"
        role="grid"
        aria-label={`${rows.length} events`}
        aria-rowcount={rows.length}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        onKeyDown={onKeyDown}
      >
        <div ref={spacerRef} class="grid-spacer" style={{ height: `${win.height}px` }}>
          <div class="grid-window" style={{ transform: `translateY(${win.offset}px)` }}>
            {visible}
          </div>
        </div>
        {rows.length === 0 ? (
          <div class="grid-empty">No events{view.analysis.events.length > 0 ? ' match the filter' : ' yet'}.</div>
        ) : null}
      </div>
    </section>
  );
}
