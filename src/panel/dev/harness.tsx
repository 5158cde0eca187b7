// Dev page (plain web page, no extension): the real panel App fed a fixture capture through the offline
// transport, the way a background snapshot would arrive. ?fixture=<name> picks the file, ?theme= the theme,
// ?live=1 replays the deltas in small batches over time as a streaming tab would. ?synthetic=100k|4mb builds a large
// capture in the page instead of loading a file (the perf script's inputs). The body's data attributes say when the
// last delta was handed to the panel (data-streamed-at, performance.now()) for the perf script's "last byte" figure.
import { render } from 'preact';
import { parseCapture } from '../../core/capture/format';
import type { Capture } from '../../core/capture/model';
import { syntheticCapture } from '../../core/capture/synthetic.fixture';
import type { PanelFeed } from '../../protocol/messages';
import type { ConnectionDelta } from '../../protocol/records';
import { App } from '../App';
import { truncateParam } from '../host';
import { recordToDeltas } from '../state/records';
import { followTheme } from '../theme';
import { createOfflineTransport } from '../transport';
import { bulkCapture } from './bulk';
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
    case 'fault':
      return d.mark.t;
    case 'gap':
      return d.gap.t;
  }
}

async function loadCapture(params: URLSearchParams): Promise<Capture> {
  const synthetic = params.get('synthetic');
  if (synthetic === '100k') return syntheticCapture(100_000);
  if (synthetic === '4mb') return bulkCapture();
  const name = params.get('fixture') ?? 'cut-mid-event';
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`bad fixture name ${name}`);
  return parseCapture(await (await fetch(`fixtures/${name}.json`)).text());
}

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  followTheme(document.documentElement, undefined, params.get('theme'));
  const root = document.getElementById('root') as HTMLElement;
  if (params.get('fixture') === 'empty') {
    render(<App transport={createOfflineTransport()} toolVersion="dev" truncateBytes={truncateParam(params)} />, root);
    return;
  }
  const capture = await loadCapture(params);
  // As a background would send them: a tab's records come from fetch or EventSource (HAR is a file's source).
  const deltas: ConnectionDelta[] = capture.connections.flatMap((c) =>
    recordToDeltas(c.source === 'eventsource' ? c : { ...c, source: 'fetch' }),
  );
  const pageUrl = capture.page?.url ?? '';
  const live = params.get('live') === '1';
  // Live: an empty snapshot first, then the deltas in batches below, as a streaming tab would send them.
  const snapshot: PanelFeed = {
    type: 'snapshot',
    tabId: 0,
    pageUrl,
    deltas: live ? [] : deltas,
    preserveLog: false,
    droppedBytes: 0,
  };
  // Delivered, not initial: the panel owns the buffers and moves them to its worker, as with a real port.
  const transport = createOfflineTransport();
  transport.deliver(snapshot);
  document.body.dataset.deliveredAt = String(performance.now());
  render(<App transport={transport} toolVersion="dev" truncateBytes={truncateParam(params)} />, root);
  if (!live) document.body.dataset.streamedAt = String(performance.now());
  if (live) {
    // Deltas in time order, as the tap would have sent them.
    const ordered = deltas.slice().sort((a, b) => deltaTime(a) - deltaTime(b));
    let i = 0;
    const tick = () => {
      transport.deliver({ type: 'deltas', tabId: 0, deltas: ordered.slice(i, i + 50) });
      i += 50;
      if (i < ordered.length) setTimeout(tick, 16);
      else {
        document.body.dataset.streamedAt = String(performance.now());
        document.body.dataset.streamed = 'done';
      }
    };
    tick();
  }
}

void main();
