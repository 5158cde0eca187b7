// Node (bench/run.ts, or alone under `flock /tmp/browser.lock`): panel-attached. How fast the page reads half of
// stream A (33 MB, 150k small events) while the panel page is open and attached to its tab, against a browser without
// the extension, in alternating rounds.
import { openBench, openPanel } from './browsers';
import { inPage } from './in-page';
import { readStream } from './page-read';
import { startBenchServer, streamQuery } from './server';
import { checkWhole, SMALL_64MB, type StreamShape } from './streams';
import { formatSummary, log, printBenchLine, printTable, rounds, summarize, variantOrder } from './stats';

const TARGET = 0.9;
const WARM_UP: StreamShape = { events: 10_000, eventBytes: SMALL_64MB.eventBytes };
/** Half of A: the same events, and a round takes half as long (the panel slows the page to a few MB/s today). */
const STREAM: StreamShape = { events: SMALL_64MB.events / 2, eventBytes: SMALL_64MB.eventBytes };

async function main(): Promise<void> {
  const server = await startBenchServer([WARM_UP, STREAM]);
  const speeds: [number[], number[]] = [[], []];
  try {
    for (let round = 0; round < rounds(); round++) {
      for (const withExtension of variantOrder(round)) {
        const bench = await openBench(server, withExtension);
        try {
          // The warm-up runs before the panel opens, so the panel starts with a small capture (as after a reload).
          checkWhole(
            await inPage(bench.page, readStream, { path: streamQuery(WARM_UP), stopAfterFirst: false }),
            WARM_UP,
          );
          if (withExtension) await openPanel(bench);
          const read = await inPage(bench.page, readStream, { path: streamQuery(STREAM), stopAfterFirst: false });
          checkWhole(read, STREAM);
          const mbs = read.bytes / 1e6 / (read.totalMs / 1000);
          speeds[withExtension ? 1 : 0].push(mbs);
          log(`round ${round + 1} ${withExtension ? 'with panel open ' : 'without extension'}: ${mbs.toFixed(1)} MB/s`);
        } finally {
          await bench.close();
        }
      }
    }
  } finally {
    await server.close();
  }
  const without = summarize(speeds[0]);
  const withPanel = summarize(speeds[1]);
  const ratio = withPanel.median / without.median;
  printTable(
    `panel-attached: page read speed of half of A, MB/s, median [min–max] of ${rounds()} rounds (fresh browser each)`,
    ['figure', 'without extension', 'with the panel open', 'ratio', 'target'],
    [['page read speed', formatSummary(without), formatSummary(withPanel), ratio.toFixed(2), `>= ${TARGET}`]],
  );
  printBenchLine('panel-attached', [
    { name: 'ratio', value: ratio.toFixed(2), target: `>=${TARGET}`, pass: ratio >= TARGET },
  ]);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
