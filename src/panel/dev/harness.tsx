// Dev page (plain web page, no extension): the real panel App fed a fixture capture through the offline
// transport, the way a background snapshot would arrive. ?fixture=<name> picks the file, ?theme= the theme,
// ?live=1 replays the deltas in small batches over time as a streaming tab would.
import { render } from 'preact';
import { parseCapture } from '../../core/capture/format';
import type { BackgroundToPanel } from '../../protocol/messages';
import type { ConnectionDelta } from '../../protocol/records';
import { App } from '../App';
import { recordToDeltas } from '../state/records';
import { followTheme } from '../theme';
import { createOfflineTransport } from '../transport';
import '../panel.css';

/** When the tap would have sent this delta. */
function deltaTime(d: ConnectionDelta): number {
  switch (d.kind) {
    case 'start':
      return d.conn.startTime;
    case 'response':
      return d.responseTime;
    case 'chunk':
      return d.t;
    case 'end':
      return d.endTime;
  }
}

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  followTheme(document.documentElement, undefined, params.get('theme'));
  const name = params.get('fixture') ?? 'cut-mid-event';
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`bad fixture name ${name}`);
  const root = document.getElementById('root') as HTMLElement;
  if (name === 'empty') {
    render(<App transport={createOfflineTransport()} toolVersion="dev" />, root);
    return;
  }
  const capture = parseCapture(await (await fetch(`fixtures/${name}.json`)).text());
  const deltas: ConnectionDelta[] = capture.connections.flatMap((c) => recordToDeltas(c));
  const pageUrl = capture.page?.url ?? '';
  const live = params.get('live') === '1';
  // Live: an empty snapshot first, then the deltas in batches below, as a streaming tab would send them.
  const snapshot: BackgroundToPanel = {
    type: 'snapshot',
    tabId: 0,
    pageUrl,
    deltas: live ? [] : deltas,
    preserveLog: false,
    droppedBytes: 0,
  };
  const transport = createOfflineTransport([snapshot]);
  render(<App transport={transport} toolVersion="dev" />, root);
  if (live) {
    // Deltas in time order, as the tap would have sent them.
    const ordered = deltas.slice().sort((a, b) => deltaTime(a) - deltaTime(b));
    let i = 0;
    const tick = () => {
      transport.deliver({ type: 'deltas', tabId: 0, deltas: ordered.slice(i, i + 50) });
      i += 50;
      if (i < ordered.length) setTimeout(tick, 16);
      else document.body.dataset.streamed = 'done';
    };
    tick();
  }
}

void main();
