// Node (in bench/browser/page.bench.ts, or alone under `flock /tmp/browser.lock`): tap-posts. 1,000 JSON-RPC POSTs one after the other
// (the tap records each: its body is JSON-RPC and it carries MCP headers), ms per POST with the extension against a
// browser without it.
import type { Page } from '@playwright/test';
import { openPanel } from './browsers';
import { threadClock } from './cpu';
import { inPage } from './in-page';
import { postMany } from './page-read';
import { formatSummary, infoRow, log, pairedRatios, printBenchLine, printTable, roundsText, summarize } from './stats';
import { runIfMain, type PageBench } from './rounds';

const POSTS = 1000;
/** Untimed POSTs first, in both variants: connection set up, code compiled. */
const WARM_UP = 20;
const TARGET = 1.05;

/** The panel's count of recorded connections (its status bar's data-wire), or null if it shows none. */
async function recordedConnections(panel: Page, expected: number): Promise<number | null> {
  const read = (): Promise<number | null> =>
    panel
      .locator('[data-testid=status-bar]')
      .getAttribute('data-wire')
      .then((wire) => (wire ? (JSON.parse(wire) as { connections: number }).connections : null));
  const deadline = Date.now() + 30_000;
  let seen = await read();
  while (seen !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    seen = await read();
  }
  return seen;
}

export function tapPosts(): PageBench {
  const perPost: [number[], number[]] = [[], []];
  // The page main thread's CPU ms per POST.
  const cpuPerPost: [number[], number[]] = [[], []];
  let recorded = 'not checked';
  return {
    name: 'tap-posts',
    shapes: [],
    async measure(page, { bench, round, withExtension }) {
      await inPage(page, postMany, WARM_UP);
      const clock = await threadClock(bench.session.context, page);
      const before = await clock.now();
      const result = await inPage(page, postMany, POSTS);
      const cpuMs = ((await clock.now()) - before) / result.posts;
      await clock.detach();
      const ms = result.totalMs / result.posts;
      perPost[withExtension ? 1 : 0].push(ms);
      cpuPerPost[withExtension ? 1 : 0].push(cpuMs);
      log(
        `tap-posts round ${round + 1} ${withExtension ? 'with   ' : 'without'}: ${ms.toFixed(3)} ms per POST, ` +
          `page thread CPU ${cpuMs.toFixed(3)} ms per POST`,
      );
      if (withExtension && recorded === 'not checked') {
        // After the timing, once: the panel shows that the tap recorded every POST, so the figure is the cost of
        // recording them (the panel was not open while they ran).
        const panel = await openPanel(bench, page);
        const seen = await recordedConnections(panel, WARM_UP + POSTS);
        await panel.close();
        recorded = `${seen ?? 'no data-wire'} of ${WARM_UP + POSTS} POSTs recorded (panel opened afterwards)`;
        log(recorded);
      }
    },
    report() {
      const without = summarize(perPost[0]);
      const withExt = summarize(perPost[1]);
      const ratio = withExt.median / without.median;
      printTable(
        `tap-posts: ${POSTS} JSON-RPC POSTs, ms per POST, median [min–max] of ${roundsText()}; ${recorded}`,
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
          infoRow('page thread CPU ms per POST (info)', cpuPerPost[0], cpuPerPost[1], 3),
        ],
      );
      printBenchLine('tap-posts', [
        { name: 'ratio', value: ratio.toFixed(2), target: `<=${TARGET}`, pass: ratio <= TARGET },
      ]);
    },
  };
}

runIfMain(import.meta.url, tapPosts);
