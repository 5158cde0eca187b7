// Node (bench/run.ts, or alone under `flock /tmp/browser.lock`): panel-100k. The panel attached while the page reads
// 100,000 small progress events at full speed (see panel-load.ts for what is measured and how).
import { panelBench } from './panel-load';
import { SMALL_64MB } from './streams';

panelBench('panel-100k', '100,000 small events at full speed', {
  events: 100_000,
  eventBytes: SMALL_64MB.eventBytes,
}).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
