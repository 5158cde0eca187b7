// Panel: the whole "MCP Streams" panel. It sees the world only through a PanelTransport; parsing, rules and the
// derived view run in the analysis worker, and this thread draws what the worker sends.
import { useCallback, useEffect, useMemo, useReducer, useState } from 'preact/hooks';
import type { WorkerPort } from './analysis/client';
import { DEFAULT_TRUNCATE_BYTES, type FaultItem } from './analysis/messages';
import { EmptyState } from './components/EmptyState';
import { FontWarmup } from './components/FontWarmup';
import { AnalysisNotices, ImportNotice, Notice } from './components/Notice';
import { StatusBar } from './components/StatusBar';
import { TIMELINE_CHROME } from './components/Timeline';
import { Toolbar } from './components/Toolbar';
import { SiteNotRecordedNotice } from './components/SiteNotRecordedNotice';
import { UnrecordedNotice } from './components/UnrecordedNotice';
import { Workspace } from './components/Workspace';
import { BreakBanner } from './components/BreakBanner';
import { useAnalysis } from './hooks/useAnalysis';
import { useBreak } from './hooks/useBreak';
import { useCaptureFiles } from './hooks/useCaptureFiles';
import { useSettings } from './hooks/useSettings';
import { useFileDrop } from './hooks/useFileDrop';
import { usePanelState } from './hooks/usePanelState';
import { useSelection } from './hooks/useSelection';
import { useWorkspaceLayout } from './hooks/useWorkspaceLayout';
import { initialState, reduce } from './state/store';
import type { InspectedUrlFeed } from './inspected-url';
import type { UnrecordedFeed } from './network-log';
import type { PanelTransport } from './transport';

export interface AppProps {
  transport: PanelTransport;
  toolVersion: string;
  /** Payloads above this many bytes are cut in the table and the detail pane until "show all". */
  truncateBytes?: number;
  /** Starts the analysis worker (tests and the in-thread fallback give another). */
  spawnWorker?: () => WorkerPort;
  /** Inside DevTools: MCP-looking requests of the network log that the tap did not record (network-log.ts). */
  unrecorded?: UnrecordedFeed;
  /** Inside DevTools: the inspected page's URL after each navigation, bridge or not (inspected-url.ts). */
  inspectedUrl?: InspectedUrlFeed;
}

const NO_FAULTS: readonly FaultItem[] = [];

export function App({
  transport,
  toolVersion,
  truncateBytes = DEFAULT_TRUNCATE_BYTES,
  spawnWorker,
  unrecorded,
  inspectedUrl,
}: AppProps) {
  const store = useReducer(reduce, initialState);
  const dispatch = store[1];
  const analysis = useAnalysis(spawnWorker);
  const { client, view } = analysis;
  const { state, live, clear, setPreserveLog, toggleRecording, backToLive } = usePanelState(transport, client, store);
  // DevTools tells every navigation; the transport only those into a recorded page (they have a bridge).
  const [navigatedUrl, setNavigatedUrl] = useState<string | undefined>(undefined);
  useEffect(() => inspectedUrl?.subscribe(setNavigatedUrl), [inspectedUrl]);
  const pageUrl = live ? (navigatedUrl ?? state.pageUrl) : undefined;
  // The user's opt-in to credentials: exports and the status bar keep them too (docs/redaction.md).
  const { settings, save: saveSettings } = useSettings(transport.settings);
  const revealSecrets = settings?.revealSecrets === true;
  // The per-tab budget the worker keeps live records within; until the settings are read, its defaults.
  const [panelBytes, panelConnections] = [settings?.panelBytes, settings?.panelConnections];
  useEffect(() => {
    if (panelBytes !== undefined && panelConnections !== undefined)
      client.budget({ bytes: panelBytes, connections: panelConnections });
  }, [client, panelBytes, panelConnections]);
  const [hangS, idleS, bufferedS] = [
    settings?.hangAfterSeconds,
    settings?.idleCutAfterSeconds,
    settings?.bufferedAfterSeconds,
  ];
  useEffect(() => {
    if (hangS !== undefined && idleS !== undefined && bufferedS !== undefined)
      client.silence({ hangMs: hangS * 1000, idleCutMs: idleS * 1000, bufferedWaitMs: bufferedS * 1000 });
  }, [client, hangS, idleS, bufferedS]);
  const files = useCaptureFiles(analysis, toolVersion, dispatch, revealSecrets);
  const breaker = useBreak(transport, view?.faults ?? NO_FAULTS, state.navigations, state.breakAck);

  const choices = useMemo(
    () => ({
      filterText: state.filterText,
      severities: state.severities,
      ...(state.sessionKey !== undefined ? { sessionKey: state.sessionKey } : {}),
      ...(state.selection ? { selection: state.selection } : {}),
      truncateBytes,
    }),
    [state.filterText, state.severities, state.sessionKey, state.selection, truncateBytes],
  );
  useEffect(() => client.choices(choices), [client, choices]);

  const selection = useSelection(view, state.selection, dispatch);
  const selectSession = useCallback(
    (sessionKey: string | undefined) => dispatch({ type: 'select-session', sessionKey }),
    [dispatch],
  );
  const { panelRef, workspaceRef, panes, narrow, resize } = useWorkspaceLayout({
    timeline: TIMELINE_CHROME + (view?.timeline.height ?? 0),
    findings: view?.findings.length ?? 0,
    detailOpen: selection.focus.found,
  });
  const { dragging, dropHandlers } = useFileDrop((file) => files.importFile(file));
  const heldConnections = analysis.held?.connections ?? 0;
  // Records handed to the worker that it has not reported on yet count as something to show ("analysing"); once
  // its view reflects them and it holds nothing (they were all ignored), the panel is empty after all.
  const reported = view !== undefined && view.seq >= client.recordsSeq;
  const empty = heldConnections === 0 && (view?.totals.connections ?? 0) === 0 && (!state.received || reported);
  // Only streams that are not MCP: nothing to inspect, but the empty state says what was seen and lists it.
  const onlyOthers =
    reported && view.totals.connections === 0 && view.otherStreams.length + view.otherStreamsLeftOff > 0;

  return (
    <div ref={panelRef} class={`panel ${narrow ? 'narrow' : 'wide'} ${dragging ? 'dragging' : ''}`} {...dropHandlers}>
      <Toolbar
        recording={state.recording}
        preserveLog={state.preserveLog}
        live={live}
        filterText={state.filterText}
        severities={state.severities}
        counts={view?.counts ?? { error: 0, warning: 0, info: 0 }}
        source={state.source}
        link={state.link}
        canExport={!empty}
        settings={transport.settings}
        pageUrl={pageUrl}
        breaker={live ? breaker : undefined}
        onToggleRecording={toggleRecording}
        onClear={clear}
        onPreserveLog={setPreserveLog}
        onFilter={(text) => dispatch({ type: 'set-filter', text })}
        onToggleSeverity={(severity) => dispatch({ type: 'toggle-severity', severity })}
        onImport={files.importFile}
        onExport={files.exportAs}
        onBackToLive={backToLive}
      />
      <BreakBanner breaker={breaker} />
      <Notice notice={state.notice} error={analysis.error} onDismiss={() => dispatch({ type: 'dismiss-notice' })} />
      <ImportNotice
        importing={state.importing}
        onCancel={() => state.importing && files.cancelImport(state.importing.seq)}
      />
      {view ? <AnalysisNotices notices={view.notices} /> : null}
      <UnrecordedNotice feed={unrecorded} />
      {pageUrl !== undefined ? (
        <SiteNotRecordedNotice settings={settings} save={saveSettings} pageUrl={pageUrl} />
      ) : null}
      {onlyOthers ? (
        <EmptyState live={live} otherStreams={view.otherStreams} otherStreamsLeftOff={view.otherStreamsLeftOff} />
      ) : empty ? (
        <EmptyState live={live} />
      ) : !view || view.totals.connections === 0 ? (
        <div class="empty-state" role="status">
          Analysing {heldConnections} connections…
        </div>
      ) : (
        <Workspace
          containerRef={workspaceRef}
          panes={panes}
          resize={resize}
          view={view}
          rows={analysis.rows}
          detail={analysis.detail}
          whole={analysis.whole}
          loading={analysis.loading}
          onLoadWhole={analysis.loadWhole}
          selectionState={state.selection}
          selection={selection}
          onSelectSession={selectSession}
        />
      )}
      <StatusBar state={state} analysis={analysis} revealSecrets={revealSecrets} />
      {empty ? <FontWarmup /> : null}
      {dragging ? <div class="drop-overlay">Drop a capture, HAR or event-stream file to inspect it</div> : null}
    </div>
  );
}
