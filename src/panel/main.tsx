// Panel page entry: runs in the DevTools panel, as a plain extension page (?tabId=N), or as a plain web page
// with no extension (import only). It may not touch the inspected page; it talks only through a PanelTransport.
import { render } from 'preact';
import pkg from '../../package.json';
import { App } from './App';
import { RuleDocPage } from './components/RuleDoc';
import { extensionApi } from './host';
import { followTheme } from './theme';
import { createOfflineTransport, createPortTransport, type PanelTransport } from './transport';
import './panel.css';

function chooseTransport(params: URLSearchParams): PanelTransport {
  const api = extensionApi();
  const runtime = api?.runtime;
  const tabId = api?.devtools?.inspectedWindow.tabId ?? parseTabId(params.get('tabId'));
  if (runtime && tabId !== undefined) return createPortTransport({ tabId, connect: () => runtime.connect({ name: 'panel' }) });
  return createOfflineTransport();
}

function parseTabId(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

const params = new URLSearchParams(location.search);
const root = document.getElementById('root') as HTMLElement;
followTheme(document.documentElement, extensionApi()?.devtools, params.get('theme'));
const rule = params.get('rule');
if (rule !== null) {
  document.title = `${rule} · MCP Streams`;
  render(<RuleDocPage id={rule} />, root);
} else {
  render(<App transport={chooseTransport(params)} toolVersion={extensionApi()?.runtime?.getManifest?.().version ?? pkg.version} />, root);
}
