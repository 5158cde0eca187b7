// Panel: the toolbar, as in the Network panel: record, clear, preserve log, filter, severities, import, export, settings.
import { useRef } from 'preact/hooks';
import { SEVERITIES } from '../../core/guard/severity';
import type { Severity } from '../../core/guard/types';
import type { ExportKind } from '../files';
import type { BreakState } from '../hooks/useBreak';
import type { LinkStatus, SettingsAccess } from '../transport';
import type { Source } from '../state/store';
import { BreakMenu } from './BreakMenu';
import { Icon, SeverityIcon } from './Icon';
import { SettingsMenu } from './SettingsPopover';

export interface ToolbarProps {
  recording: boolean;
  preserveLog: boolean;
  live: boolean;
  filterText: string;
  severities: Record<Severity, boolean>;
  counts: Record<Severity, number>;
  source: Source;
  link: LinkStatus;
  canExport: boolean;
  /** The extension's settings; without an extension there are none, and no gear. */
  settings?: SettingsAccess | undefined;
  /** The inspected page (live only), offered as a site to record on. */
  pageUrl?: string | undefined;
  /** The Break menu; only a live page has traffic to break. */
  breaker?: BreakState | undefined;
  onToggleRecording(): void;
  onClear(): void;
  onPreserveLog(preserve: boolean): void;
  onFilter(text: string): void;
  onToggleSeverity(severity: Severity): void;
  onImport(file: File): void;
  onExport(kind: ExportKind): void;
  onBackToLive(): void;
}

const severityLabels: Record<Severity, string> = { error: 'Errors', warning: 'Warnings', info: 'Info' };

const linkText: Record<LinkStatus, string> = {
  connecting: 'Connecting…',
  attached: 'Live',
  reconnecting: 'Reconnecting…',
  offline: 'No extension: import a file',
  gone: 'Extension reloaded: reopen DevTools',
};

export function Toolbar(p: ToolbarProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <div class="toolbar" role="toolbar" aria-label="MCP Streams">
      <button
        type="button"
        class={`tb-button record ${p.recording ? 'on' : ''}`}
        aria-pressed={p.recording}
        title={p.recording ? 'Stop recording new connections' : 'Record new connections'}
        onClick={p.onToggleRecording}
        disabled={!p.live}
      >
        <Icon name="record" />
      </button>
      <button type="button" class="tb-button" data-testid="clear" title="Clear" onClick={p.onClear}>
        <Icon name="clear" />
      </button>
      <span class="tb-sep" />
      <label class="tb-check" title="Keep what was captured when the page navigates">
        <input
          type="checkbox"
          data-testid="preserve-log"
          checked={p.preserveLog}
          disabled={!p.live}
          onChange={(e) => p.onPreserveLog(e.currentTarget.checked)}
        />
        Preserve log
      </label>
      <span class="tb-sep" />
      {p.breaker ? (
        <>
          <BreakMenu breaker={p.breaker} disabled={!p.live || p.source.kind === 'file'} />
          <span class="tb-sep" />
        </>
      ) : null}
      <input
        class="tb-filter"
        type="search"
        placeholder="Filter"
        aria-label="Filter sessions, events and findings (words must all match, -word excludes)"
        title="Words must all match; -word excludes"
        value={p.filterText}
        onInput={(e) => p.onFilter(e.currentTarget.value)}
      />
      <div class="tb-segmented" role="group" aria-label="Severities">
        {SEVERITIES.map((s) => (
          <button
            type="button"
            key={s}
            class={`tb-toggle ${p.severities[s] ? 'on' : ''}`}
            aria-pressed={p.severities[s]}
            data-severity={s}
            title={`${severityLabels[s]}: ${p.counts[s]}`}
            aria-label={`${severityLabels[s]} ${p.counts[s]}`}
            onClick={() => p.onToggleSeverity(s)}
          >
            <SeverityIcon severity={s} />
            <span class="tb-label">{severityLabels[s]}</span>
            <span class="tb-count">{p.counts[s]}</span>
          </button>
        ))}
      </div>
      <span class="tb-spacer" />
      {p.source.kind === 'file' ? (
        <span class="tb-source" title={p.source.name}>
          <span class="tb-source-name">{p.source.name}</span>
          {p.live ? (
            <button type="button" class="tb-link" onClick={p.onBackToLive}>
              Back to live
            </button>
          ) : null}
        </span>
      ) : (
        <span class={`tb-status link-${p.link}`} title={linkText[p.link]}>
          <span class="dot" />
          <span class="tb-label">{linkText[p.link]}</span>
        </span>
      )}
      <span class="tb-sep" />
      <input
        ref={fileInput}
        class="visually-hidden"
        type="file"
        tabIndex={-1}
        accept=".json,.har,.txt,.sse,.log,application/json,text/event-stream"
        data-testid="import-input"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) p.onImport(file);
          e.currentTarget.value = '';
        }}
      />
      <button
        type="button"
        class="tb-button labelled"
        title="Import a capture, a HAR or a saved event stream"
        onClick={() => fileInput.current?.click()}
      >
        <Icon name="upload" />
        <span class="tb-label">Import</span>
      </button>
      <div class="tb-segmented" role="group" aria-label="Export">
        <button
          type="button"
          class="tb-button labelled"
          data-testid="export-capture"
          disabled={!p.canExport}
          title="Export capture (format v1, findings included)"
          onClick={() => p.onExport('capture')}
        >
          <Icon name="download" />
          <span class="tb-label">Capture</span>
        </button>
        <button
          type="button"
          class="tb-button labelled"
          data-testid="export-har"
          disabled={!p.canExport}
          title="Export HAR 1.2"
          onClick={() => p.onExport('har')}
        >
          HAR
        </button>
      </div>
      {p.settings ? (
        <>
          <span class="tb-sep" />
          <SettingsMenu access={p.settings} pageUrl={p.pageUrl} />
        </>
      ) : null}
    </div>
  );
}
