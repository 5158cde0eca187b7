// Node (in bench/browser/cold.bench.ts, or alone under `flock /tmp/browser.lock`): tap-throughput-cold. In a fresh
// browser, the page reads its FIRST stream (64 MB, fetched 200 ms after load, nothing read before it), with the
// extension against a browser without it: one fresh browser per stream shape and side.
import { runColdIfMain, type ColdBench } from './cold';
import { inPage } from './in-page';
import { readStream } from './page-read';
import { streamQuery } from './server';
import { BIG_64MB, checkWhole, SMALL_64MB, type StreamShape } from './streams';
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

interface Case {
  label: string;
  figure: string;
  shape: StreamShape;
}

const TARGET = 0.95;
const CASES: readonly Case[] = [
  { label: 'A: ~300k small events, full speed', figure: 'ratio-A', shape: SMALL_64MB },
  { label: 'B: 16 events of 4 MiB, full speed', figure: 'ratio-B', shape: BIG_64MB },
];

export function tapThroughputCold(): ColdBench {
  // [case][side] per round; side 0 without, 1 with the extension.
  const speeds = CASES.map((): [number[], number[]] => [[], []]);
  const firstByte = CASES.map((): [number[], number[]] => [[], []]);
  return {
    name: 'tap-throughput-cold',
    shapes: CASES.map((c) => c.shape),
    loads: CASES.length,
    async measure(page, { round, withExtension, load }) {
      const c = CASES[load];
      if (!c) throw new Error(`no case ${load}`);
      const read = await inPage(page, readStream, { path: streamQuery(c.shape), stopAfterFirst: false });
      checkWhole(read, c.shape);
      const mbs = read.bytes / 1e6 / (read.totalMs / 1000);
      const side = withExtension ? 1 : 0;
      speeds[load]?.[side].push(mbs);
      firstByte[load]?.[side].push(read.firstByteMs);
      log(
        `tap-throughput-cold round ${round + 1} ${withExtension ? 'with   ' : 'without'} ${c.label}: ` +
          `${mbs.toFixed(1)} MB/s, first chunk after ${read.firstByteMs.toFixed(1)} ms`,
      );
    },
    report() {
      const figures: Figure[] = [];
      const rows = CASES.map((c, i) => {
        const [withoutSpeeds, withSpeeds] = speeds[i] ?? [[], []];
        const without = summarize(withoutSpeeds);
        const withExt = summarize(withSpeeds);
        const ratio = withExt.median / without.median;
        figures.push({ name: c.figure, value: ratio.toFixed(2), target: `>=${TARGET}`, pass: ratio >= TARGET });
        return [
          c.label,
          formatSummary(without),
          formatSummary(withExt),
          ratio.toFixed(2),
          formatSummary(pairedRatios(withoutSpeeds, withSpeeds), 2),
          `>= ${TARGET}`,
        ];
      });
      for (const [i, c] of CASES.entries()) {
        const [without, withExt] = firstByte[i] ?? [[], []];
        rows.push(infoRow(`${c.label.split(':')[0] ?? c.label}: ms to the first chunk (info)`, without, withExt, 1));
      }
      printTable(
        `tap-throughput-cold: the first stream of a fresh browser's page, 200 ms after load, MB/s, median [min–max] ` +
          `of ${roundsText()}`,
        ['stream', 'without', 'with extension', 'ratio of medians', 'per-round ratio', 'target'],
        rows,
      );
      printBenchLine('tap-throughput-cold', figures);
    },
  };
}

runColdIfMain(import.meta.url, tapThroughputCold);
