// Node (bench/run.ts, or alone under `flock /tmp/browser.lock`): tap-first-event. The time from fetch() to the
// first complete event parsed, measured inside the page, with the extension against a browser without it.
import { openBench } from './browsers';
import { inPage } from './in-page';
import { readStream } from './page-read';
import { startBenchServer, streamQuery } from './server';
import { PACE_MB_S, SMALL_64MB } from './streams';
import {
  formatSummary,
  log,
  printBenchLine,
  printTable,
  rounds,
  summarize,
  variantOrder,
  type Figure,
  type Summary,
} from './stats';

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

function median(values: readonly number[]): number {
  return summarize(values).median;
}

async function main(): Promise<void> {
  const server = await startBenchServer([SMALL_64MB]);
  // perPage[case][with ? 1 : 0]: the median of READS first-event times of one fresh page, one per round.
  const perPage = CASES.map(() => [[] as number[], [] as number[]]);
  const firstOfPage = CASES.map(() => [[] as number[], [] as number[]]);
  try {
    for (let round = 0; round < rounds(); round++) {
      for (const withExtension of variantOrder(round)) {
        const bench = await openBench(server, withExtension);
        const side = withExtension ? 1 : 0;
        try {
          const times = CASES.map(() => [] as number[]);
          for (let i = 0; i < READS; i++) {
            for (const [c, kase] of CASES.entries()) {
              const path = streamQuery(SMALL_64MB, kase.pace);
              const read = await inPage(bench.page, readStream, { path, stopAfterFirst: true });
              if (read.events < 1) throw new Error('no event before the stream ended');
              times[c]?.push(read.firstEventMs);
              await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
            }
          }
          for (const [c, kase] of CASES.entries()) {
            perPage[c]?.[side]?.push(median(times[c] ?? []));
            firstOfPage[c]?.[side]?.push(times[c]?.[0] ?? Number.NaN);
            const shown = (times[c] ?? []).map((t) => t.toFixed(1)).join(' ');
            log(`round ${round + 1} ${withExtension ? 'with   ' : 'without'} ${kase.label}: ${shown} ms`);
          }
        } finally {
          await bench.close();
        }
      }
    }
  } finally {
    await server.close();
  }
  const figures: Figure[] = [];
  const rows: string[][] = [];
  const row = (label: string, without: Summary, withExt: Summary, target: string): string[] => [
    label,
    formatSummary(without, 2),
    formatSummary(withExt, 2),
    (withExt.median - without.median).toFixed(2),
    target,
  ];
  for (const [c, kase] of CASES.entries()) {
    const without = summarize(perPage[c]?.[0] ?? []);
    const withExt = summarize(perPage[c]?.[1] ?? []);
    const added = withExt.median - without.median;
    figures.push({ name: kase.figure, value: added.toFixed(2), target: `<${kase.target}`, pass: added < kase.target });
    rows.push(row(`${kase.label}, median of ${READS} streams per page`, without, withExt, `< ${kase.target}`));
    const firstWithout = summarize(firstOfPage[c]?.[0] ?? []);
    const firstWith = summarize(firstOfPage[c]?.[1] ?? []);
    rows.push(row(`${kase.label}, first stream of the page (info)`, firstWithout, firstWith, ''));
  }
  printTable(
    `tap-first-event: fetch() -> first event parsed in the page, ms, median [min–max] of ${rounds()} rounds`,
    ['case', 'without', 'with extension', 'added', 'target'],
    rows,
  );
  printBenchLine('tap-first-event', figures);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
