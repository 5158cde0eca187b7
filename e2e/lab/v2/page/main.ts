// Runs in the v2 lab page (browser): the TypeScript SDK v2 client's recorded runs (runs.ts), over the page's own
// fetch so the inspector's tap sees them, and window.__v2 for tests. Text only, never HTML.
import { wireSignature, type WireSignature } from '../../../../src/panel/view/wireSignature';
import { recordingFetch } from '../../client/recording-fetch';
import { runV2, type V2RunName, type V2RunResult } from '../runs';

export interface V2PageApi {
  /** Runs one scenario; the Node side has armed its cut on the server first (a plan is code, it cannot travel). */
  run(name: V2RunName): Promise<V2RunResult>;
  /** What this page's fetch saw since it loaded, counted as the panel counts its records. */
  wire(): WireSignature;
}

declare global {
  interface Window {
    __v2: V2PageApi;
  }
}

const recorder = recordingFetch(
  (url, init) => fetch(url, init),
  (url) => !url.pathname.startsWith('/__lab/'),
);
const notes = document.getElementById('notes') as HTMLPreElement;

async function run(name: V2RunName): Promise<V2RunResult> {
  const result = await runV2(name, {
    url: new URL('/mcp', window.location.origin).href,
    plans: { push: () => 0 },
    toolsChanged: () => fetch('/__lab/tools-changed', { method: 'POST' }),
    fetch: recorder.fetch,
  });
  notes.textContent = `${name}: ${result.verdict}\n${result.steps.join('\n')}\n${result.errors.join('\n')}`;
  return result;
}

window.__v2 = { run, wire: () => wireSignature(recorder.connections) };
