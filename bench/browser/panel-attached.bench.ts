// Node (in bench/browser/page.bench.ts, or alone under `flock /tmp/browser.lock`): panel-attached. How fast the page
// reads half of stream A (33 MB, 150k small events) while the panel page is open and attached to its tab, against a
// browser without the extension.
import { openPanel } from './browsers';
import { inPage } from './in-page';
import { readStream } from './page-read';
import { streamQuery } from './server';
import { checkWhole, SMALL_64MB, type StreamShape } from './streams';
import { formatSummary, log, pairedRatios, printBenchLine, printTable, roundsText, summarize } from './stats';
import { runIfMain, type PageBench } from './rounds';

const TARGET = 0.9;
const WARM_UP: StreamShape = { events: 10_000, eventBytes: SMALL_64MB.eventBytes };
/** Half of A: the same events, and a round takes half as long (the panel slows the page to a few MB/s today). */
const STREAM: StreamShape = { events: SMALL_64MB.events / 2, eventBytes: SMALL_64MB.eventBytes };

export function panelAttached(): PageBench {
  const speeds: [number[], number[]] = [[], []];
  return {
    name: 'panel-attached',
    shapes: [WARM_UP, STREAM],
    async measure(page, { bench, round, withExtension }) {
      // The warm-up runs before the panel opens, so the panel starts with a small capture (as after a reload).
      checkWhole(await inPage(page, readStream, { path: streamQuery(WARM_UP), stopAfterFirst: false }), WARM_UP);
      const panel = withExtension ? await openPanel(bench, page) : null;
      try {
        const read = await inPage(page, readStream, { path: streamQuery(STREAM), stopAfterFirst: false });
        checkWhole(read, STREAM);
        const mbs = read.bytes / 1e6 / (read.totalMs / 1000);
        speeds[withExtension ? 1 : 0].push(mbs);
        log(
          `panel-attached round ${round + 1} ${withExtension ? 'panel open' : 'no extension'}: ${mbs.toFixed(1)} MB/s`,
        );
      } finally {
        await panel?.close();
      }
    },
    report() {
      const without = summarize(speeds[0]);
      const withPanel = summarize(speeds[1]);
      const ratio = withPanel.median / without.median;
      printTable(
        `panel-attached: page read speed of half of A, MB/s, median [min–max] of ${roundsText()} (fresh browser each)`,
        ['figure', 'without extension', 'with the panel open', 'ratio of medians', 'per-round ratio', 'target'],
        [
          [
            'page read speed',
            formatSummary(without),
            formatSummary(withPanel),
            ratio.toFixed(2),
            formatSummary(pairedRatios(speeds[0], speeds[1]), 2),
            `>= ${TARGET}`,
          ],
        ],
      );
      printBenchLine('panel-attached', [
        { name: 'ratio', value: ratio.toFixed(2), target: `>=${TARGET}`, pass: ratio >= TARGET },
      ]);
    },
  };
}

runIfMain(import.meta.url, panelAttached);
