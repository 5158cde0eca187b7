// Panel page entry: runs in the DevTools panel, as a plain extension page (?tabId=N), or as a plain web page
// with no extension (import only). It may not touch the inspected page; it talks only through a PanelTransport.
import { render } from 'preact';
import pkg from '../../package.json';
import { App } from './App';
import { RuleDocPage } from './components/RuleDoc';
import { isExtensionPage, truncateParam } from './host';
import { watchInspectedUrl, type InspectedUrlFeed } from './inspected-url';
import { watchNetworkLog, type UnrecordedFeed } from './network-log';
import { followTheme, type ThemeSource } from './theme';
import { createOfflineTransport, createPortTransport, type PanelTransport } from './transport';
import './panel.css';

interface Host {
  transport: PanelTransport;
  panels?: ThemeSource;
  version: string;
  unrecorded?: UnrecordedFeed;
  inspectedUrl?: InspectedUrlFeed;
}

async function connectHost(params: URLSearchParams): Promise<Host> {
  if (!isExtensionPage()) return { transport: createOfflineTransport(), version: pkg.version };
  const { browser } = await import('../platform/browser');
  // Inside DevTools the inspected tab is given; as a plain extension page the tab comes in ?tabId=N.
  const devtools = typeof browser.devtools?.inspectedWindow?.tabId === 'number' ? browser.devtools : undefined;
  const tabId = devtools?.inspectedWindow.tabId ?? parseTabId(params.get('tabId'));
  const version = browser.runtime.getManifest().version;
  const panels = devtools?.panels;
  if (tabId === undefined) return { transport: createOfflineTransport(), version, ...(panels ? { panels } : {}) };
  const port = createPortTransport({ tabId, connect: () => browser.runtime.connect({ name: 'panel' }) });
  // DevTools' network log sees a worker's requests, which the tap cannot: the panel says how many it missed.
  const network = devtools?.network;
  if (!network) return { transport: port, version, ...(panels ? { panels } : {}) };
  const { transport, unrecorded } = watchNetworkLog(port, network);
  const inspectedUrl = watchInspectedUrl(network);
  return { transport, version, unrecorded, inspectedUrl, ...(panels ? { panels } : {}) };
}

function parseTabId(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const root = document.getElementById('root') as HTMLElement;
  const rule = params.get('rule');
  if (rule !== null) {
    followTheme(document.documentElement, undefined, params.get('theme'));
    document.title = `${rule} · MCP Streams`;
    render(<RuleDocPage id={rule} />, root);
    return;
  }
  const host = await connectHost(params);
  followTheme(document.documentElement, host.panels, params.get('theme'));
  render(
    <App
      transport={host.transport}
      toolVersion={host.version}
      truncateBytes={truncateParam(params)}
      {...(host.unrecorded ? { unrecorded: host.unrecorded } : {})}
      {...(host.inspectedUrl ? { inspectedUrl: host.inspectedUrl } : {})}
    />,
    root,
  );
}

/** A panel that cannot start says why, where the user looks, rather than staying blank. */
function showStartFailure(error: unknown): void {
  const root = document.getElementById('root');
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  if (root) {
    const note = document.createElement('p');
    note.className = 'start-failure';
    note.dataset.testid = 'start-failure';
    note.textContent = `MCP Streams could not start: ${text}. Close and reopen DevTools; if it stays, report it with this text.`;
    root.replaceChildren(note);
  }
}

main().catch(showStartFailure);
