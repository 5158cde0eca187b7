// Node (in bench/browser/cold.bench.ts, or alone under `flock /tmp/browser.lock`): tap-first-event-cold. In a fresh
// browser, the page's FIRST stream, fetched 200 ms after its load: fetch() -> the reader's first chunk, with the
// extension against a browser without it; the figure is the difference of the medians.
import { runColdIfMain, type ColdBench } from './cold';
import { inPage } from './in-page';
import { readStream } from './page-read';
import { streamQuery } from './server';
import { SMALL_64MB } from './streams';
import { formatSummary, log, printBenchLine, printTable, roundsText, summarize } from './stats';

const TARGET_MS = 5;

export function tapFirstEventCold(): ColdBench {
  // [side][round], side 0 without, 1 with the extension.
  const firstByte: [number[], number[]] = [[], []];
  const firstEvent: [number[], number[]] = [[], []];
  return {
    name: 'tap-first-event-cold',
    shapes: [SMALL_64MB],
    loads: 1,
    async measure(page, { round, withExtension }) {
      const read = await inPage(page, readStream, { path: streamQuery(SMALL_64MB), stopAfterFirst: true });
      if (read.events < 1) throw new Error('no event before the stream ended');
      const side = withExtension ? 1 : 0;
      firstByte[side].push(read.firstByteMs);
      firstEvent[side].push(read.firstEventMs);
      log(
        `tap-first-event-cold round ${round + 1} ${withExtension ? 'with   ' : 'without'}: first byte ` +
          `${read.firstByteMs.toFixed(1)} ms, first event ${read.firstEventMs.toFixed(1)} ms`,
      );
    },
    report() {
      const row = (label: string, values: [number[], number[]], target: string): string[] => {
        const [without, withExt] = values.map((v) => summarize(v));
        if (!without || !withExt) return [label, '-', '-', '-', target];
        return [
          label,
          formatSummary(without, 1),
          formatSummary(withExt, 1),
          (withExt.median - without.median).toFixed(1),
          target,
        ];
      };
      printTable(
        `tap-first-event-cold: the first stream of a fresh browser's page, 200 ms after load: fetch() -> ..., ms, ` +
          `median [min–max] of ${roundsText()}`,
        ['figure', 'without', 'with extension', 'added', 'target'],
        [row('first chunk read', firstByte, `<= ${TARGET_MS}`), row('first event parsed (info)', firstEvent, '')],
      );
      const added = summarize(firstByte[1]).median - summarize(firstByte[0]).median;
      printBenchLine('tap-first-event-cold', [
        { name: 'added-ms', value: added.toFixed(1), target: `<=${TARGET_MS}`, pass: added <= TARGET_MS },
      ]);
    },
  };
}

runColdIfMain(import.meta.url, tapFirstEventCold);
