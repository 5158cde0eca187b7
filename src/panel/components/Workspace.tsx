// Panel: the workspace grid: sessions (and the other streams under them), timeline, events, detail and findings, with the splitters between them.
import type { RefObject } from 'preact';
import { useCallback } from 'preact/hooks';
import type { DetailData, EventRef, ViewData } from '../analysis/messages';
import type { WholePayload } from '../hooks/useAnalysis';
import type { SelectionControls } from '../hooks/useSelection';
import type { PaneResizer } from '../hooks/useWorkspaceLayout';
import type { Selection } from '../state/store';
import type { RowSource } from '../view/rowCache';
import { TIMELINE_FOLDED, type WorkspaceLayout } from '../view/workspace';
import { DetailPane } from './DetailPane';
import { EventsTable } from './EventsTable';
import { FindingsList } from './FindingsList';
import { OtherStreams } from './OtherStreams';
import { SessionList } from './SessionList';
import { Splitter } from './Splitter';
import { Timeline } from './Timeline';

export interface WorkspaceProps {
  containerRef: RefObject<HTMLDivElement | null>;
  panes: WorkspaceLayout;
  resize: PaneResizer;
  view: ViewData;
  rows: RowSource;
  detail: DetailData | undefined;
  whole: WholePayload | undefined;
  loading: string | undefined;
  onLoadWhole(event: EventRef): void;
  selectionState: Selection | undefined;
  selection: SelectionControls;
  onSelectSession(sessionKey: string | undefined): void;
}

export function Workspace(p: WorkspaceProps) {
  const { panes, resize, view, selection } = p;
  const { focus } = selection;
  const gridStyle = {
    gridTemplateColumns: panes.columns,
    gridTemplateRows: panes.rows,
    gridTemplateAreas: panes.areas,
  };
  // Stacked under a narrow table, the detail closes to give the table its room back.
  const closeDetail = panes.mode === 'narrow' ? { onClose: selection.clear } : {};
  const { onLoadWhole } = p;
  const showAll = useCallback(
    (event: EventRef) => {
      selection.selectEvent(event);
      onLoadWhole(event);
    },
    [selection, onLoadWhole],
  );
  return (
    <div ref={p.containerRef} class={`workspace ${panes.mode}`} style={gridStyle}>
      <div class="area-sessions">
        <SessionList
          rows={view.sessionRows}
          totalEvents={view.totals.events}
          selected={view.sessionKey}
          onSelect={p.onSelectSession}
        />
        <OtherStreams streams={view.otherStreams} leftOff={view.otherStreamsLeftOff} />
      </div>
      <div class="area-split-left">
        <Splitter axis="x" label="Resize sessions" onResize={resize('sessions', 1, 120, 480)} />
      </div>
      <div class="area-timeline">
        <Timeline
          layout={view.timeline}
          origin={view.origin}
          focus={focus}
          folded={panes.timeline <= TIMELINE_FOLDED}
          onHit={selection.selectHit}
        />
      </div>
      <div class="area-split-mid">
        <Splitter axis="y" label="Resize timeline" onResize={resize('timeline', 1, 70, 900)} />
      </div>
      <div class="area-events">
        <EventsTable
          rows={p.rows}
          totalEvents={view.totals.events}
          focus={focus}
          onSelectEvent={selection.selectEvent}
          onSelectFinding={selection.selectFinding}
          onShowAll={showAll}
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
              selection={p.selectionState}
              detail={p.detail}
              whole={p.whole}
              loading={p.loading}
              onLoadWhole={p.onLoadWhole}
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
          findings={view.findings}
          leftOff={view.findingsLeftOff}
          total={view.totals.findings}
          counts={view.counts}
          hiddenBySeverity={view.hiddenBySeverity}
          selected={focus.findingKey}
          onSelect={selection.selectFinding}
          onSelectConnection={selection.selectConnection}
          waiting={view.waiting}
        />
      </div>
    </div>
  );
}
