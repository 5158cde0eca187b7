// Panel: the whole "MCP Streams" panel. It sees the world only through a PanelTransport.
import { EmptyState } from './components/EmptyState';
import { Notice } from './components/Notice';
import { StatusBar } from './components/StatusBar';
import { TIMELINE_CHROME } from './components/Timeline';
import { Toolbar } from './components/Toolbar';
import { Workspace } from './components/Workspace';
import { useCaptureFiles } from './hooks/useCaptureFiles';
import { useDerived } from './hooks/useDerived';
import { useFileDrop } from './hooks/useFileDrop';
import { usePanelState } from './hooks/usePanelState';
import { useSelection } from './hooks/useSelection';
import { useTimelineLayout } from './hooks/useTimelineLayout';
import { useVisibleRows } from './hooks/useVisibleRows';
import { useWorkspaceLayout } from './hooks/useWorkspaceLayout';
import type { PanelTransport } from './transport';

export interface AppProps {
  transport: PanelTransport;
  toolVersion: string;
}

export function App({ transport, toolVersion }: AppProps) {
  const { state, dispatch, live, clear, setPreserveLog, backToLive } = usePanelState(transport);
  const { derived, error } = useDerived(state.records, toolVersion);
  const view = derived?.view;
  const rows = useVisibleRows(view, state);
  const { layout, origin } = useTimelineLayout(derived, rows.sessionKey, rows.findingRows);
  const selection = useSelection(view, state.selection, dispatch);
  const { panelRef, workspaceRef, panes, narrow, resize } = useWorkspaceLayout({
    timeline: TIMELINE_CHROME + (layout?.height ?? 0),
    findings: rows.findingRows.length,
    detailOpen: selection.hasSelection,
  });
  const { importFile, exportAs } = useCaptureFiles(state, view, toolVersion, dispatch);
  const { dragging, dropHandlers } = useFileDrop((file) => void importFile(file));
  const empty = state.records.connections.length === 0;

  return (
    <div ref={panelRef} class={`panel ${narrow ? 'narrow' : 'wide'} ${dragging ? 'dragging' : ''}`} {...dropHandlers}>
      <Toolbar
        recording={state.recording}
        preserveLog={state.preserveLog}
        live={live}
        filterText={state.filterText}
        severities={state.severities}
        counts={rows.counts}
        source={state.source}
        link={state.link}
        canExport={!empty}
        settings={transport.settings}
        onToggleRecording={() => dispatch({ type: 'toggle-recording' })}
        onClear={clear}
        onPreserveLog={setPreserveLog}
        onFilter={(text) => dispatch({ type: 'set-filter', text })}
        onToggleSeverity={(severity) => dispatch({ type: 'toggle-severity', severity })}
        onImport={(file) => void importFile(file)}
        onExport={exportAs}
        onBackToLive={backToLive}
      />
      <Notice notice={state.notice} error={error} onDismiss={() => dispatch({ type: 'dismiss-notice' })} />
      {empty ? (
        <EmptyState live={live} />
      ) : !view || !layout ? (
        <div class="empty-state" role="status">
          Analysing {state.records.connections.length} connections…
        </div>
      ) : (
        <Workspace
          containerRef={workspaceRef}
          panes={panes}
          resize={resize}
          view={view}
          layout={layout}
          origin={origin}
          rows={rows}
          severities={state.severities}
          selection={selection}
          onSelectSession={(sessionKey) => dispatch({ type: 'select-session', sessionKey })}
        />
      )}
      <StatusBar state={state} derived={derived} shownEvents={rows.eventRows.length} />
      {dragging ? <div class="drop-overlay">Drop a capture, HAR or event-stream file to inspect it</div> : null}
    </div>
  );
}
