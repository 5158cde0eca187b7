// Panel: the toolbar's settings gear, as in the Network panel: what the extension records before DevTools opens
// and whether credentials are kept. Changes are written at once and apply to requests that start after them.
import { useState } from 'preact/hooks';
import { useSettings } from '../hooks/useSettings';
import { useToolbarPopover } from '../hooks/useToolbarPopover';
import type { SettingsAccess } from '../transport';
import { RecordOnFields } from './RecordOnFields';
import { SilenceFields } from './SilenceFields';
import {
  BUFFER_MIB_MAX,
  BUFFER_MIB_MIN,
  PANEL_CONNECTIONS_MAX,
  PANEL_CONNECTIONS_MIN,
  PANEL_MIB_MAX,
  PANEL_MIB_MIN,
  bufferBytesFromField,
  bufferFieldValue,
  panelBytesFromField,
  panelConnectionsFromField,
} from '../view/settingsForm';

/** An eight-toothed gear with a hole, 16px like the other toolbar icons. */
const GEAR =
  'M6.74 2.75L6.76 0.91L9.24 0.91L9.26 2.75L10.82 3.4L12.14 2.11L13.89 3.86L12.6 5.18L13.25 6.74L15.09 6.76L15.09 9.24L13.25 9.26L12.6 10.82L13.89 12.14L12.14 13.89L10.82 12.6L9.26 13.25L9.24 15.09L6.76 15.09L6.74 13.25L5.18 12.6L3.86 13.89L2.11 12.14L3.4 10.82L2.75 9.26L0.91 9.24L0.91 6.76L2.75 6.74L3.4 5.18L2.11 3.86L3.86 2.11L5.18 3.4ZM10.3 8a2.3 2.3 0 1 0 -4.6 0a2.3 2.3 0 1 0 4.6 0Z';

type DraftField = 'buffer' | 'panelBytes' | 'panelConnections';

export function SettingsMenu({ access, pageUrl }: { access: SettingsAccess; pageUrl: string | undefined }) {
  const { settings, problem, saved, save } = useSettings(access);
  // The number fields while the user types; committed (clamped) on change, i.e. on Enter, blur or the spinner.
  const [drafts, setDrafts] = useState<Partial<Record<DraftField, string>>>({});
  const { id, button, popover, onBeforeToggle, onToggle } = useToolbarPopover('right', () => setDrafts({}));
  const draft = drafts.buffer;
  const setDraft = (field: DraftField, text: string | undefined) =>
    setDrafts((current) => ({ ...current, [field]: text }));

  const secretsOn = settings?.revealSecrets === true;
  return (
    <>
      <button
        ref={button}
        type="button"
        class={`tb-button settings-button ${secretsOn ? 'secrets-on' : ''}`}
        aria-label="Settings"
        data-testid="settings"
        title={secretsOn ? 'Settings (recording credentials in clear)' : 'Settings'}
        popovertarget={id}
      >
        <svg class="icon" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
          <path d={GEAR} fill="currentColor" fill-rule="evenodd" />
        </svg>
      </button>
      <div
        ref={popover}
        id={id}
        popover="auto"
        role="dialog"
        aria-label="Settings"
        class="settings-popover"
        data-testid="settings-popover"
        onBeforeToggle={onBeforeToggle}
        onToggle={onToggle}
      >
        {settings ? (
          <div class="settings-form">
            <RecordOnFields id={id} settings={settings} save={save} pageUrl={pageUrl} />
            <label class="settings-label" for={`${id}-buffer`}>
              Buffer before DevTools opens
            </label>
            <span class="settings-field">
              <input
                id={`${id}-buffer`}
                class="settings-number num"
                type="number"
                min={BUFFER_MIB_MIN}
                max={BUFFER_MIB_MAX}
                step={1}
                data-testid="buffer-mib"
                aria-describedby={`${id}-buffer-hint`}
                value={draft ?? bufferFieldValue(settings.bufferBytes)}
                onInput={(e) => setDraft('buffer', e.currentTarget.value)}
                onChange={(e) => {
                  const bytes = bufferBytesFromField(e.currentTarget.value);
                  setDraft('buffer', undefined);
                  if (bytes !== undefined && bytes !== settings.bufferBytes) save({ bufferBytes: bytes });
                }}
              />
              MiB per frame
            </span>
            <p class="settings-hint dim" id={`${id}-buffer-hint`}>
              Kept from page load until a panel attaches ({BUFFER_MIB_MIN}–{BUFFER_MIB_MAX} MiB); the oldest finished
              connections go first.
            </p>
            <label class="settings-label" for={`${id}-panel-bytes`}>
              Panel memory per tab
            </label>
            <span class="settings-field">
              <input
                id={`${id}-panel-bytes`}
                class="settings-number num"
                type="number"
                min={PANEL_MIB_MIN}
                max={PANEL_MIB_MAX}
                step={1}
                data-testid="panel-mib"
                aria-describedby={`${id}-panel-hint`}
                value={drafts.panelBytes ?? bufferFieldValue(settings.panelBytes)}
                onInput={(e) => setDraft('panelBytes', e.currentTarget.value)}
                onChange={(e) => {
                  const bytes = panelBytesFromField(e.currentTarget.value);
                  setDraft('panelBytes', undefined);
                  if (bytes !== undefined && bytes !== settings.panelBytes) save({ panelBytes: bytes });
                }}
              />
              MiB,
              <input
                class="settings-number settings-count num"
                type="number"
                min={PANEL_CONNECTIONS_MIN}
                max={PANEL_CONNECTIONS_MAX}
                step={1}
                aria-label="Connections per tab"
                data-testid="panel-connections"
                aria-describedby={`${id}-panel-hint`}
                value={drafts.panelConnections ?? String(settings.panelConnections)}
                onInput={(e) => setDraft('panelConnections', e.currentTarget.value)}
                onChange={(e) => {
                  const count = panelConnectionsFromField(e.currentTarget.value);
                  setDraft('panelConnections', undefined);
                  if (count !== undefined && count !== settings.panelConnections) save({ panelConnections: count });
                }}
              />
              connections
            </span>
            <p class="settings-hint dim" id={`${id}-panel-hint`}>
              What this panel keeps of a tab ({PANEL_MIB_MIN}–{PANEL_MIB_MAX} MiB, {PANEL_CONNECTIONS_MIN}–
              {PANEL_CONNECTIONS_MAX.toLocaleString('en-US')} connections); over it the oldest finished connections
              become gaps, shown in the status bar.
            </p>
            <SilenceFields id={id} settings={settings} save={save} />
            <label class="settings-check">
              <input
                type="checkbox"
                data-testid="reveal-secrets"
                aria-describedby={`${id}-secrets-warning`}
                checked={settings.revealSecrets}
                onChange={(e) => save({ revealSecrets: e.currentTarget.checked })}
              />
              Record credentials (Authorization, Cookie, API keys) — off by default
            </label>
            <p class={`settings-warning ${secretsOn ? 'on' : 'dim'}`} id={`${id}-secrets-warning`}>
              Exported captures and HAR files will then contain these secrets.
            </p>
          </div>
        ) : (
          <p class="settings-hint dim">{problem ? null : 'Reading settings…'}</p>
        )}
        {problem ? (
          <p class="settings-problem" role="alert">
            {problem}
          </p>
        ) : null}
        <p class="settings-note dim" role="status">
          {saved
            ? 'Saved. Applies to new requests: reload the page to record its start.'
            : 'Changes apply at once, to new requests; what is recorded stays as it was.'}
        </p>
      </div>
    </>
  );
}
