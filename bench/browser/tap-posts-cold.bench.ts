// Node (in bench/browser/cold.bench.ts, or alone under `flock /tmp/browser.lock`): tap-posts-cold. In a fresh
// browser, 200 ms after load, the page's first 1,000 JSON-RPC POSTs (no warm-up: the first ones pay what a cold
// page pays), ms per POST with the extension against a browser without it.
import { runColdIfMain, type ColdBench } from './cold';
import { inPage } from './in-page';
import { postMany } from './page-read';
import { formatSummary, log, pairedRatios, printBenchLine, printTable, roundsText, summarize } from './stats';

const POSTS = 1000;
const TARGET = 1.05;

export function tapPostsCold(): ColdBench {
  const perPost: [number[], number[]] = [[], []];
  return {
    name: 'tap-posts-cold',
    shapes: [],
    loads: 1,
    async measure(page, { round, withExtension }) {
      const result = await inPage(page, postMany, POSTS);
      const ms = result.totalMs / result.posts;
      perPost[withExtension ? 1 : 0].push(ms);
      log(`tap-posts-cold round ${round + 1} ${withExtension ? 'with   ' : 'without'}: ${ms.toFixed(3)} ms per POST`);
    },
    report() {
      const without = summarize(perPost[0]);
      const withExt = summarize(perPost[1]);
      const ratio = withExt.median / without.median;
      printTable(
        `tap-posts-cold: a fresh browser's page, 200 ms after load, its first ${POSTS} JSON-RPC POSTs, ms per POST, ` +
          `median [min–max] of ${roundsText()}`,
        ['figure', 'without', 'with extension', 'ratio of medians', 'per-round ratio', 'target'],
        [
          [
            'ms per POST',
            formatSummary(without, 3),
            formatSummary(withExt, 3),
            ratio.toFixed(2),
            formatSummary(pairedRatios(perPost[0], perPost[1]), 2),
            `<= ${TARGET}`,
          ],
        ],
      );
      printBenchLine('tap-posts-cold', [
        { name: 'ratio', value: ratio.toFixed(2), target: `<=${TARGET}`, pass: ratio <= TARGET },
      ]);
    },
  };
}

runColdIfMain(import.meta.url, tapPostsCold);
