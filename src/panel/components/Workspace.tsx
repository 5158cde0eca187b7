// Panel: the workspace grid: sessions, timeline, events, detail and findings, with the splitters between them.
import type { RefObject } from 'preact';
import type { Severity } from '../../core/guard/types';
import type { SelectionControls } from '../hooks/useSelection';
import type { VisibleRows } from '../hooks/useVisibleRows';
import type { PaneResizer } from '../hooks/useWorkspaceLayout';
import type { PanelView } from '../view/model';
import type { TimelineLayout } from '../view/timeline';
import { TIMELINE_FOLDED, type WorkspaceLayout } from '../view/workspace';
import { DetailPane } from './DetailPane';
import { EventsTable } from './EventsTable';
import { FindingsList } from './FindingsList';
import { SessionList } from './SessionList';
import { Splitter } from './Splitter';
import { Timeline } from './Timeline';

export interface WorkspaceProps {
  containerRef: RefObject<HTMLDivElement | null>;
  panes: WorkspaceLayout;
  resize: PaneResizer;
  view: PanelView;
  layout: TimelineLayout;
  origin: number;
  rows: VisibleRows;
  severities: Record<Severity, boolean>;
  selection: SelectionControls;
  onSelectSession(sessionKey: string | undefined): void;
}

export function Workspace(p: WorkspaceProps) {
  const { panes, resize, view, rows, selection } = p;
  const { resolved } = selection;
  const gridStyle = {
    gridTemplateColumns: panes.columns,
    gridTemplateRows: panes.rows,
    gridTemplateAreas: panes.areas,
  };
  // Stacked under a narrow table, the detail closes to give the table its room back.
  const closeDetail = panes.mode === 'narrow' ? { onClose: () => selection.select(undefined) } : {};
  return (
    <div ref={p.containerRef} class={`workspace ${panes.mode}`} style={gridStyle}>
      <div class="area-sessions">
        <SessionList
          rows={rows.sessionRows}
          totalEvents={view.analysis.events.length}
          selected={rows.sessionKey}
          onSelect={p.onSelectSession}
        />
      </div>
      <div class="area-split-left">
        <Splitter axis="x" label="Resize sessions" onResize={resize('sessions', 1, 120, 480)} />
      </div>
      <div class="area-timeline">
        <Timeline
          layout={p.layout}
          origin={p.origin}
          resolved={resolved}
          folded={panes.timeline <= TIMELINE_FOLDED}
          onHit={selection.selectHit}
        />
      </div>
      <div class="area-split-mid">
        <Splitter axis="y" label="Resize timeline" onResize={resize('timeline', 1, 70, 900)} />
      </div>
      <div class="area-events">
        <EventsTable
          view={view}
          rows={rows.eventRows}
          shown={p.severities}
          selectedEvent={resolved.eventIndex}
          onSelectEvent={selection.selectEvent}
          onSelectFinding={selection.selectFinding}
        />
      </div>
      {panes.showDetail ? (
        <>
          <div class="area-split-right">
            {panes.mode === 'wide' ? (
              <Splitter axis="x" label="Resize details" onResize={resize('detail', -1, 220, 900)} />
            ) : (
              <Splitter axis="y" label="Resize details" onResize={resize('detailHeight', -1, 100, 900)} />
            )}
          </div>
          <div class="area-detail">
            <DetailPane
              view={view}
              resolved={resolved}
              onSelectConnection={selection.selectConnection}
              onSelectEvent={selection.selectEvent}
              {...closeDetail}
            />
          </div>
        </>
      ) : null}
      <div class="area-split-bottom">
        <Splitter axis="y" label="Resize findings" onResize={resize('findings', -1, 48, 900)} />
      </div>
      <div class="area-findings">
        <FindingsList
          view={view}
          indexes={rows.findingRows}
          counts={rows.counts}
          hiddenBySeverity={rows.hiddenBySeverity}
          selected={resolved.findingIndex}
          onSelect={selection.selectFinding}
        />
      </div>
    </div>
  );
}
