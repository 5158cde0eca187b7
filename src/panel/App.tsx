// Panel: the whole "MCP Streams" panel. It sees the world only through a PanelTransport.
import type { TargetedDragEvent } from 'preact';
import { useEffect, useMemo, useReducer, useState } from 'preact/hooks';
import { loadInput } from '../core/capture/load';
import { serializeCapture } from '../core/capture/format';
import { exportHar } from '../core/capture/har-export';
import { DetailPane } from './components/DetailPane';
import { EmptyState } from './components/EmptyState';
import { EventsTable } from './components/EventsTable';
import { FindingsList } from './components/FindingsList';
import { SessionList } from './components/SessionList';
import { Splitter } from './components/Splitter';
import { StatusBar } from './components/StatusBar';
import { Timeline, TIMELINE_CHROME } from './components/Timeline';
import { Toolbar } from './components/Toolbar';
import { downloadText, exportFileName, readFileBytes, type ExportKind } from './files';
import { useDerived } from './hooks/useDerived';
import { useElementBox } from './hooks/useElementSize';
import { recordsToCapture } from './state/capture';
import { initialState, reduce, type Selection } from './state/store';
import type { PanelTransport } from './transport';
import { parseFilter } from './view/filter';
import { severityCounts, visibleEventIndexes, visibleFindingIndexes, visibleSessionRows } from './view/lists';
import { eventSelection, findingSelection, resolveSelection } from './view/selection';
import { captureEnd, layoutTimeline } from './view/timeline';
import type { TimelineHit } from './view/timelineHit';
import { workspaceLayout, workspaceMode, type PaneSizes } from './view/workspace';

export interface AppProps {
  transport: PanelTransport;
  toolVersion: string;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

export function App({ transport, toolVersion }: AppProps) {
  const [state, dispatch] = useReducer(reduce, initialState);
  const [sizes, setSizes] = useState<PaneSizes>({ sessions: 210, detail: 400 });
  const [panelRef, panelBox] = useElementBox<HTMLDivElement>();
  const [workspaceRef, box] = useElementBox<HTMLDivElement>();
  const [dragging, setDragging] = useState(false);
  const live = transport.tabId !== undefined;

  useEffect(() => {
    transport.start({ message: (message) => dispatch({ type: 'transport', message }), status: (status) => dispatch({ type: 'link', status }) });
    return () => transport.stop();
  }, [transport]);

  const { derived, error } = useDerived(state.records, toolVersion);
  const view = derived?.view;
  const filter = useMemo(() => parseFilter(state.filterText), [state.filterText]);
  const sessionKey = state.sessionKey !== undefined && view?.sessionsByKey.has(state.sessionKey) ? state.sessionKey : undefined;
  const sessionRows = useMemo(() => (view ? visibleSessionRows(view, filter) : []), [view, filter]);
  const eventRows = useMemo(() => (view ? visibleEventIndexes(view, sessionKey, filter) : []), [view, sessionKey, filter]);
  const findingRows = useMemo(() => (view ? visibleFindingIndexes(view, sessionKey, filter, state.severities) : []), [view, sessionKey, filter, state.severities]);
  const allShown = useMemo(() => (view ? visibleFindingIndexes(view, sessionKey, filter, { error: true, warning: true, info: true }).length : 0), [view, sessionKey, filter]);
  const counts = useMemo(() => (view ? severityCounts(view, sessionKey) : { error: 0, warning: 0, info: 0 }), [view, sessionKey]);
  const end = useMemo(() => captureEnd(derived?.records.connections ?? []), [derived]);
  const layout = useMemo(() => (view ? layoutTimeline(view, sessionKey, findingRows, end) : undefined), [view, sessionKey, findingRows, end]);
  const resolved = useMemo(() => (view ? resolveSelection(view, state.selection) : {}), [view, state.selection]);

  const select = (selection: Selection | undefined) => dispatch({ type: 'select', selection });
  const selectEvent = (index: number) => view && select(eventSelection(view, index));
  const selectFinding = (index: number) => view && select(findingSelection(view, index));
  const selectConnection = (connectionId: string) => select({ kind: 'connection', connectionId });
  const onHit = (hit: TimelineHit) => {
    if (hit.kind === 'event') selectEvent(hit.eventIndex);
    else if (hit.kind === 'finding') selectFinding(hit.findingIndex);
    else selectConnection(hit.connectionId);
  };

  const onImport = async (file: File) => {
    try {
      const capture = loadInput(await readFileBytes(file), file.name);
      dispatch({ type: 'imported', name: file.name, capture });
    } catch (e) {
      dispatch({ type: 'import-failed', name: file.name, message: e instanceof Error ? e.message : String(e) });
    }
  };
  const onExport = (kind: ExportKind) => {
    const capture = recordsToCapture(state.records, { toolVersion, createdAt: Date.now(), ...(state.pageUrl ? { pageUrl: state.pageUrl } : {}) });
    const name = exportFileName(kind, new Date());
    if (kind === 'capture') downloadText(serializeCapture(capture, { findings: view?.analysis.findings ?? [] }), name, 'application/json');
    else downloadText(exportHar(capture), name, 'application/json');
  };
  const onClear = () => {
    dispatch({ type: 'clear' });
    if (transport.tabId !== undefined) transport.send({ type: 'clear', tabId: transport.tabId });
  };
  const onPreserveLog = (preserve: boolean) => {
    dispatch({ type: 'set-preserve-log', preserve });
    if (transport.tabId !== undefined) transport.send({ type: 'set-preserve-log', tabId: transport.tabId, preserve });
  };
  const onBackToLive = () => {
    dispatch({ type: 'back-to-live' });
    transport.reattach();
  };

  const dropHandlers = {
    onDragOver: (e: TargetedDragEvent<HTMLDivElement>) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      setDragging(true);
    },
    onDragLeave: (e: TargetedDragEvent<HTMLDivElement>) => {
      if (e.currentTarget === e.target) setDragging(false);
    },
    onDrop: (e: TargetedDragEvent<HTMLDivElement>) => {
      e.preventDefault();
      setDragging(false);
      const file = e.dataTransfer?.files[0];
      if (file) void onImport(file);
    },
  };

  const empty = state.records.connections.length === 0;
  const origin = sessionKey !== undefined ? (view?.sessionsByKey.get(sessionKey)?.startTime ?? 0) : (layout?.start ?? 0);
  const selectedAnything = resolved.eventIndex !== undefined || resolved.findingIndex !== undefined || resolved.connectionId !== undefined;
  const panes = workspaceLayout(box.width || panelBox.width || 1280, box.height || 600, sizes, {
    timeline: TIMELINE_CHROME + (layout?.height ?? 0),
    findings: findingRows.length,
    detailOpen: selectedAnything,
  });
  const narrow = workspaceMode(panelBox.width || 1280) === 'narrow';
  const gridStyle = { gridTemplateColumns: panes.columns, gridTemplateRows: panes.rows, gridTemplateAreas: panes.areas };
  // A drag starts from the size shown, which may have followed the content until now.
  const resize = (key: keyof PaneSizes, sign: 1 | -1, lo: number, hi: number) => (delta: number) =>
    setSizes((s) => {
      const shown: Record<keyof PaneSizes, number> = { sessions: panes.sessions, detail: panes.detail, detailHeight: panes.detail, timeline: panes.timeline, findings: panes.findings };
      return { ...s, [key]: clamp((s[key] ?? shown[key]) + sign * delta, lo, hi) };
    });

  return (
    <div ref={panelRef} class={`panel ${narrow ? 'narrow' : 'wide'} ${dragging ? 'dragging' : ''}`} {...dropHandlers}>
      <Toolbar
        recording={state.recording}
        preserveLog={state.preserveLog}
        live={live}
        filterText={state.filterText}
        severities={state.severities}
        counts={counts}
        source={state.source}
        link={state.link}
        canExport={!empty}
        settings={transport.settings}
        onToggleRecording={() => dispatch({ type: 'toggle-recording' })}
        onClear={onClear}
        onPreserveLog={onPreserveLog}
        onFilter={(text) => dispatch({ type: 'set-filter', text })}
        onToggleSeverity={(severity) => dispatch({ type: 'toggle-severity', severity })}
        onImport={(file) => void onImport(file)}
        onExport={onExport}
        onBackToLive={onBackToLive}
      />
      {state.notice || error ? (
        <div class={`notice ${error || state.notice?.kind === 'error' ? 'error' : ''}`} role="status">
          <span class="selectable">{error ?? state.notice?.text}</span>
          {state.notice ? (
            <button type="button" class="link" onClick={() => dispatch({ type: 'dismiss-notice' })}>
              Dismiss
            </button>
          ) : null}
        </div>
      ) : null}
      {empty ? (
        <EmptyState live={live} />
      ) : !view || !layout ? (
        <div class="empty-state" role="status">
          Analysing {state.records.connections.length} connections…
        </div>
      ) : (
        <div ref={workspaceRef} class={`workspace ${panes.mode}`} style={gridStyle}>
          <div class="area-sessions">
            <SessionList rows={sessionRows} totalEvents={view.analysis.events.length} selected={sessionKey} onSelect={(key) => dispatch({ type: 'select-session', sessionKey: key })} />
          </div>
          <div class="area-split-left">
            <Splitter axis="x" label="Resize sessions" onResize={resize('sessions', 1, 120, 480)} />
          </div>
          <div class="area-timeline">
            <Timeline layout={layout} origin={origin} resolved={resolved} onHit={onHit} />
          </div>
          <div class="area-split-mid">
            <Splitter axis="y" label="Resize timeline" onResize={resize('timeline', 1, 70, 900)} />
          </div>
          <div class="area-events">
            <EventsTable view={view} rows={eventRows} shown={state.severities} selectedEvent={resolved.eventIndex} onSelectEvent={selectEvent} onSelectFinding={selectFinding} />
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
                <DetailPane view={view} resolved={resolved} onSelectConnection={selectConnection} onSelectEvent={selectEvent} {...(panes.mode === 'narrow' ? { onClose: () => select(undefined) } : {})} />
              </div>
            </>
          ) : null}
          <div class="area-split-bottom">
            <Splitter axis="y" label="Resize findings" onResize={resize('findings', -1, 48, 900)} />
          </div>
          <div class="area-findings">
            <FindingsList view={view} indexes={findingRows} counts={counts} hiddenBySeverity={allShown - findingRows.length} selected={resolved.findingIndex} onSelect={selectFinding} />
          </div>
        </div>
      )}
      <StatusBar state={state} derived={derived} shownEvents={eventRows.length} />
      {dragging ? <div class="drop-overlay">Drop a capture, HAR or event-stream file to inspect it</div> : null}
    </div>
  );
}
