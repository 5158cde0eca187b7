// Node (in bench/browser/page.bench.ts, or alone under `flock /tmp/browser.lock`): panel-attached. How fast the page
// reads half of stream A (33 MB, 150k small events) while the panel page is open and attached to its tab, against a
// browser without the extension. Two reads a round: the first right after the panel opened ("just opened", info: V8
// compiles the panel's and its worker's hot code then, about 1-1.5 s of CPU in the extension's renderer on this
// machine, measured with --trace-opt), the second once the panel has shown all of the first (the figure: a panel that
// has been open a while, as it is when the traffic being debugged happens). The baseline reads twice as well.
import type { Page } from '@playwright/test';
import { openPanel } from './browsers';
import { threadClock } from './cpu';
import { inPage } from './in-page';
import { readPanel } from './panel-probe';
import { readStream } from './page-read';
import { streamQuery } from './server';
import { checkWhole, SMALL_64MB, type StreamShape } from './streams';
import { formatSummary, infoRow, log, pairedRatios, printBenchLine, printTable, roundsText, summarize } from './stats';
import { runIfMain, type PageBench } from './rounds';

const TARGET = 0.9;
const WARM_UP: StreamShape = { events: 10_000, eventBytes: SMALL_64MB.eventBytes };
/** Half of A: the same events, and a round takes half as long (the panel slows the page to a few MB/s today). */
const STREAM: StreamShape = { events: SMALL_64MB.events / 2, eventBytes: SMALL_64MB.eventBytes };

/** Waits until the panel shows at least `events` events with a current analysis (a warning after 60 s, not a failure). */
async function panelCaughtUp(panel: Page, events: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const reading = await inPage(panel, readPanel, undefined);
    if (reading.analysisCurrent && (reading.events ?? 0) >= events) return;
    if (Date.now() > deadline) {
      process.stderr.write(`warning: the panel did not show ${events} events within 60 s\n`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function panelAttached(): PageBench {
  /** [without, with] for the read after the panel settled, and for the read right after it opened. */
  const speeds: [number[], number[]] = [[], []];
  const cold: [number[], number[]] = [[], []];
  /** [without, with]: the page main thread's CPU ms for the settled read (the tap and bridge run on it). */
  const cpu: [number[], number[]] = [[], []];
  return {
    name: 'panel-attached',
    shapes: [WARM_UP, STREAM],
    async measure(page, { bench, round, withExtension }) {
      // The warm-up runs before the panel opens, so the panel starts with a small capture (as after a reload).
      checkWhole(await inPage(page, readStream, { path: streamQuery(WARM_UP), stopAfterFirst: false }), WARM_UP);
      const panel = withExtension ? await openPanel(bench, page) : null;
      const side = withExtension ? 1 : 0;
      const readOnce = async () => {
        const read = await inPage(page, readStream, { path: streamQuery(STREAM), stopAfterFirst: false });
        checkWhole(read, STREAM);
        return read.bytes / 1e6 / (read.totalMs / 1000);
      };
      try {
        const first = await readOnce();
        cold[side].push(first);
        if (panel) await panelCaughtUp(panel, WARM_UP.events + STREAM.events);
        const clock = await threadClock(bench.session.context, page);
        const before = await clock.now();
        const settled = await readOnce();
        const cpuMs = (await clock.now()) - before;
        await clock.detach();
        speeds[side].push(settled);
        cpu[side].push(cpuMs);
        log(
          `panel-attached round ${round + 1} ${withExtension ? 'panel open' : 'no extension'}: ${settled.toFixed(1)} MB/s, page thread CPU ${cpuMs.toFixed(0)} ms (just opened: ${first.toFixed(1)} MB/s)`,
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
          [
            'panel just opened (info)',
            formatSummary(summarize(cold[0])),
            formatSummary(summarize(cold[1])),
            (summarize(cold[1]).median / summarize(cold[0]).median).toFixed(2),
            formatSummary(pairedRatios(cold[0], cold[1]), 2),
            '',
          ],
          infoRow('page thread CPU ms, settled read (info)', cpu[0], cpu[1], 0),
        ],
      );
      printBenchLine('panel-attached', [
        { name: 'ratio', value: ratio.toFixed(2), target: `>=${TARGET}`, pass: ratio >= TARGET },
      ]);
    },
  };
}

runIfMain(import.meta.url, panelAttached);
