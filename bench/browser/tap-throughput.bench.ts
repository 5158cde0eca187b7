// Node (in bench/browser/page.bench.ts, or alone under `flock /tmp/browser.lock`): tap-throughput. How fast the page
// reads a 64 MB SSE stream with the extension loaded, against the same page in a browser without it.
import { threadClock } from './cpu';
import { inPage } from './in-page';
import { readStream } from './page-read';
import { streamQuery } from './server';
import { checkWhole, PACE_MB_S, SMALL_64MB, BIG_64MB, type StreamShape } from './streams';
import {
  formatSummary,
  infoRow,
  log,
  pairedRatios,
  printBenchLine,
  printTable,
  roundsText,
  summarize,
  type Figure,
} from './stats';
import { runIfMain, type PageBench } from './rounds';

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

/** Read once before timing, on both sides: the page's parser (and the tap, when loaded) are compiled by then. */
const WARM_UP: StreamShape = { events: 10_000, eventBytes: SMALL_64MB.eventBytes };

export function tapThroughput(): PageBench {
  // speeds[case][side] = MB/s per round; side 0 without, 1 with the extension.
  const speeds = CASES.map((): [number[], number[]] => [[], []]);
  // cpu[case][side] = the page main thread's CPU ms for the read, per round.
  const cpu = CASES.map((): [number[], number[]] => [[], []]);
  return {
    name: 'tap-throughput',
    shapes: [WARM_UP, ...CASES.map((c) => c.shape)],
    async measure(page, { bench, round, withExtension }) {
      checkWhole(await inPage(page, readStream, { path: streamQuery(WARM_UP), stopAfterFirst: false }), WARM_UP);
      const clock = await threadClock(bench.session.context, page);
      try {
        for (const [i, c] of CASES.entries()) {
          const before = await clock.now();
          const read = await inPage(page, readStream, { path: streamQuery(c.shape, c.pace), stopAfterFirst: false });
          const cpuMs = (await clock.now()) - before;
          checkWhole(read, c.shape);
          const mbs = read.bytes / 1e6 / (read.totalMs / 1000);
          speeds[i]?.[withExtension ? 1 : 0].push(mbs);
          cpu[i]?.[withExtension ? 1 : 0].push(cpuMs);
          log(
            `tap-throughput round ${round + 1} ${withExtension ? 'with   ' : 'without'} ${c.label}: ` +
              `${mbs.toFixed(1)} MB/s, page thread CPU ${cpuMs.toFixed(0)} ms`,
          );
        }
      } finally {
        await clock.detach();
      }
    },
    report() {
      const figures: Figure[] = [];
      const rows = CASES.map((c, i) => {
        const [withoutSpeeds, withSpeeds] = speeds[i] ?? [[], []];
        const without = summarize(withoutSpeeds);
        const withExt = summarize(withSpeeds);
        const ratio = withExt.median / without.median;
        figures.push({ name: c.figure, value: ratio.toFixed(2), target: `>=${c.target}`, pass: ratio >= c.target });
        return [
          c.label,
          formatSummary(without),
          formatSummary(withExt),
          ratio.toFixed(2),
          formatSummary(pairedRatios(withoutSpeeds, withSpeeds), 2),
          `>= ${c.target}`,
        ];
      });
      // Not a target: the page's own CPU cost of each read, the low-noise view of what the extension adds there.
      for (const [i, c] of CASES.entries()) {
        const [withoutCpu, withCpu] = cpu[i] ?? [[], []];
        rows.push(infoRow(`${c.label.split(':')[0] ?? c.label}: page thread CPU ms (info)`, withoutCpu, withCpu, 0));
      }
      printTable(
        `tap-throughput: page read speed, MB/s, median [min–max] of ${roundsText()} (fresh browser each)`,
        ['stream', 'without', 'with extension', 'ratio of medians', 'per-round ratio', 'target'],
        rows,
      );
      printBenchLine('tap-throughput', figures);
    },
  };
}

runIfMain(import.meta.url, tapThroughput);
