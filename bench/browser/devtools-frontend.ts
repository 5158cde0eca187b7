// Node (benches): what Chromium's own DevTools window is doing, read from its frontend document over CDP (the
// frontend's modules, imported by their devtools:// URLs): which panel is in front, whether async stack traces are
// captured, and what its network log holds for the bench's streams (DevTools records a text/event-stream response's
// events itself, one protocol message per event).
import type { TargetSession } from '../../e2e/fixtures/cdp-target';

/** DevTools' own settings in the profile's Preferences (`devtools.preferences`): values are JSON-encoded strings. */
export interface DevtoolsPreferences {
  /** The panel in front when DevTools opens: DevTools' `panel-selected-tab`. */
  panel: string;
  /** DevTools' `disable-async-stack-traces` (Settings > Debugger; the key's name since the settings went kebab-case). */
  asyncStackTracesOff: boolean;
}

export function devtoolsPreferences(p: DevtoolsPreferences): Record<string, unknown> {
  return {
    devtools: {
      preferences: {
        'panel-selected-tab': JSON.stringify(p.panel),
        'disable-async-stack-traces': JSON.stringify(p.asyncStackTracesOff),
      },
    },
  };
}

export interface DevtoolsState {
  /** The id of the panel in front ('network', or chrome-extension://<id><title> for an extension's). */
  selectedPanel: string;
  asyncStackTracesOff: boolean;
  /** The Network panel's record button, DevTools' `network-log.record-log` (a session setting, on by default). */
  recording: boolean;
  /** The bench's streams in DevTools' network log, oldest first: finished, and how many SSE events DevTools holds. */
  streams: { finished: boolean; events: number }[];
}

/** Reads the state above; `path` picks the network log's requests (those whose URL contains it). */
export async function readDevtools(frontend: TargetSession, path: string): Promise<DevtoolsState> {
  return JSON.parse(
    await frontend.evaluate<string>(`(async () => {
      const Common = await import('devtools://devtools/bundled/core/common/common.js');
      const UI = await import('devtools://devtools/bundled/ui/legacy/legacy.js');
      const Logs = await import('devtools://devtools/bundled/models/logs/logs.js');
      const settings = Common.Settings.Settings.instance();
      const log = Logs.NetworkLog.NetworkLog.instance();
      return JSON.stringify({
        selectedPanel: UI.InspectorView.InspectorView.instance().tabbedPane.selectedTabId ?? '',
        asyncStackTracesOff: settings.moduleSetting('disable-async-stack-traces').get(),
        recording: settings.moduleSetting('network-log.record-log').get(),
        streams: log.requests()
          .filter((r) => r.url().includes(${JSON.stringify(path)}))
          .map((r) => ({ finished: r.finished, events: r.eventSourceMessages().length })),
      });
    })()`),
  ) as DevtoolsState;
}
