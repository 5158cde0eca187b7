// Node (in bench/browser/page.bench.ts, or alone under `flock /tmp/browser.lock`): tap-first-event. The time from
// fetch() to the first complete event parsed, measured inside the page, with the extension against a browser
// without it; the figure is the difference of the medians.
import { inPage } from './in-page';
import { readStream } from './page-read';
import { streamQuery } from './server';
import { PACE_MB_S, SMALL_64MB } from './streams';
import {
  bootstrapDifference,
  formatSummary,
  log,
  printBenchLine,
  printTable,
  rounds,
  roundsText,
  summarize,
  type Figure,
} from './stats';
import { runIfMain, type PageBench } from './rounds';

/**
 * Streams per page and case. The page cancels each once its first event is parsed, so a read costs tens of ms;
 * the per-page median keeps one slow connection setup from deciding the round (on this shared 2-core machine the
 * response head alone takes 7-90 ms on loopback), and the first stream of each fresh page is also shown on its own
 * (it pays for the tap's first run).
 */
const READS = 10;
/** Quiet time between streams, so the teardown of a cancelled full-speed stream does not overlap the next fetch. */
const PAUSE_MS = 50;

interface Case {
  label: string;
  figure: string;
  pace: number;
  /** Added ms allowed. */
  target: number;
}

const CASES: readonly Case[] = [
  { label: 'full speed', figure: 'added-ms-full', pace: 0, target: 10 },
  { label: `paced at ${PACE_MB_S} MB/s`, figure: 'added-ms-paced', pace: PACE_MB_S, target: 0.5 },
];

type Sides = [number[], number[]];

export function tapFirstEvent(): PageBench {
  // Per case and side (0 without, 1 with): the median of one page's READS streams, one per round; every stream;
  // and the first stream of each page.
  const perPage = CASES.map((): Sides => [[], []]);
  const all = CASES.map((): Sides => [[], []]);
  const firstOfPage = CASES.map((): Sides => [[], []]);
  return {
    name: 'tap-first-event',
    shapes: [SMALL_64MB],
    async measure(page, { round, withExtension }) {
      const side = withExtension ? 1 : 0;
      const times = CASES.map(() => [] as number[]);
      for (let i = 0; i < READS; i++) {
        for (const [c, kase] of CASES.entries()) {
          const path = streamQuery(SMALL_64MB, kase.pace);
          const read = await inPage(page, readStream, { path, stopAfterFirst: true });
          if (read.events < 1) throw new Error('no event before the stream ended');
          times[c]?.push(read.firstEventMs);
          await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
        }
      }
      for (const [c, kase] of CASES.entries()) {
        const mine = times[c] ?? [];
        perPage[c]?.[side].push(summarize(mine).median);
        all[c]?.[side].push(...mine);
        firstOfPage[c]?.[side].push(mine[0] ?? Number.NaN);
        const shown = mine.map((t) => t.toFixed(1)).join(' ');
        log(`tap-first-event round ${round + 1} ${withExtension ? 'with   ' : 'without'} ${kase.label}: ${shown} ms`);
      }
    },
    report() {
      const figures: Figure[] = [];
      const rows: string[][] = [];
      for (const [c, kase] of CASES.entries()) {
        const [without, withExt] = (perPage[c] ?? [[], []]).map((v) => summarize(v));
        if (!without || !withExt) continue;
        const added = withExt.median - without.median;
        const [lo, hi] = bootstrapDifference(all[c]?.[0] ?? [], all[c]?.[1] ?? []);
        figures.push({
          name: kase.figure,
          value: added.toFixed(2),
          target: `<${kase.target}`,
          pass: added < kase.target,
        });
        rows.push([
          `${kase.label}, median of ${READS} streams per page`,
          formatSummary(without, 2),
          formatSummary(withExt, 2),
          added.toFixed(2),
          `${lo.toFixed(1)} to ${hi.toFixed(1)}`,
          `< ${kase.target}`,
        ]);
        const [firstWithout, firstWith] = (firstOfPage[c] ?? [[], []]).map((v) => summarize(v));
        if (!firstWithout || !firstWith) continue;
        rows.push([
          `${kase.label}, first stream of the page (info)`,
          formatSummary(firstWithout, 2),
          formatSummary(firstWith, 2),
          (firstWith.median - firstWithout.median).toFixed(2),
          '',
          '',
        ]);
      }
      printTable(
        `tap-first-event: fetch() -> first event parsed in the page, ms, median [min–max] of ${roundsText()}; ` +
          `"90% interval": bootstrap of the difference over all ${rounds() * READS} streams per side`,
        ['case', 'without', 'with extension', 'added', '90% interval', 'target'],
        rows,
      );
      printBenchLine('tap-first-event', figures);
    },
  };
}

runIfMain(import.meta.url, tapFirstEvent);
