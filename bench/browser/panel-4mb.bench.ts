// Node (bench/run.ts, or alone under `flock /tmp/browser.lock`): panel-4mb. The panel attached while the page reads
// 20 events of 4 MiB at full speed (see panel-load.ts for what is measured and how).
import { panelBench } from './panel-load';
import { BIG_64MB } from './streams';

panelBench('panel-4mb', '20 events of 4 MiB at full speed', { events: 20, eventBytes: BIG_64MB.eventBytes }).catch(
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
