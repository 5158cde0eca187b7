// Node (bench/run.ts, or alone under `flock /tmp/browser.lock`): tap-throughput. How fast the page reads a 64 MB
// SSE stream with the extension loaded, against the same page in a browser without it, in alternating rounds.
import { checkWhole, PACE_MB_S, SMALL_64MB, BIG_64MB, type StreamShape } from './streams';
import { openBench } from './browsers';
import { inPage } from './in-page';
import { readStream } from './page-read';
import { startBenchServer, streamQuery } from './server';
import { formatSummary, log, printBenchLine, printTable, rounds, summarize, variantOrder, type Figure } from './stats';

/** The paced stream: A's events, half as many (33 MB), so a paced read takes under 2 s. */
const PACED: StreamShape = { events: SMALL_64MB.events / 2, eventBytes: SMALL_64MB.eventBytes };

interface Case {
  label: string;
  figure: string;
  shape: StreamShape;
  pace: number;
  target: number;
}

const CASES: readonly Case[] = [
  { label: 'A: ~300k small events, full speed', figure: 'ratio-A', shape: SMALL_64MB, pace: 0, target: 0.95 },
  { label: 'B: 16 events of 4 MiB, full speed', figure: 'ratio-B', shape: BIG_64MB, pace: 0, target: 0.95 },
  {
    label: `paced: half of A at ${PACE_MB_S} MB/s`,
    figure: 'ratio-paced',
    shape: PACED,
    pace: PACE_MB_S,
    target: 0.98,
  },
];

/** Read once before timing, in both variants: the page's parser (and the tap, when loaded) are compiled by then. */
const WARM_UP: StreamShape = { events: 10_000, eventBytes: SMALL_64MB.eventBytes };

async function main(): Promise<void> {
  const server = await startBenchServer([WARM_UP, ...CASES.map((c) => c.shape)]);
  // speeds[case][with ? 1 : 0] = MB/s per round
  const speeds = CASES.map(() => [[] as number[], [] as number[]]);
  try {
    for (let round = 0; round < rounds(); round++) {
      for (const withExtension of variantOrder(round)) {
        const bench = await openBench(server, withExtension);
        try {
          checkWhole(
            await inPage(bench.page, readStream, { path: streamQuery(WARM_UP), stopAfterFirst: false }),
            WARM_UP,
          );
          for (const [i, c] of CASES.entries()) {
            const read = await inPage(bench.page, readStream, {
              path: streamQuery(c.shape, c.pace),
              stopAfterFirst: false,
            });
            checkWhole(read, c.shape);
            const mbs = read.bytes / 1e6 / (read.totalMs / 1000);
            speeds[i]?.[withExtension ? 1 : 0]?.push(mbs);
            log(`round ${round + 1} ${withExtension ? 'with   ' : 'without'} ${c.label}: ${mbs.toFixed(1)} MB/s`);
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
  const rows = CASES.map((c, i) => {
    const without = summarize(speeds[i]?.[0] ?? []);
    const withExt = summarize(speeds[i]?.[1] ?? []);
    const ratio = withExt.median / without.median;
    figures.push({ name: c.figure, value: ratio.toFixed(2), target: `>=${c.target}`, pass: ratio >= c.target });
    return [c.label, formatSummary(without), formatSummary(withExt), ratio.toFixed(2), `>= ${c.target}`];
  });
  printTable(
    `tap-throughput: page read speed, MB/s, median [min–max] of ${rounds()} rounds (fresh browser each)`,
    ['stream', 'without', 'with extension', 'ratio', 'target'],
    rows,
  );
  printBenchLine('tap-throughput', figures);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
