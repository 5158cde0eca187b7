// Node (benches): the rounds of the cold benches (tap-*-cold). Unlike rounds.ts, every measurement gets a fresh
// browser, its bench page just loaded, and starts COLD_DELAY_MS after the page's load event: the first stream after a
// load is when an MCP client initializes, and a warm page (rounds.ts reuses its browser) does not show what that
// first stream pays. Sides alternate per round as everywhere (stats.ts variantOrder).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { openBench, type BenchBrowser } from './browsers';
import { inPage } from './in-page';
import { waitAfterLoad } from './page-read';
import { exitOnError } from './rounds';
import { startBenchServer } from './server';
import type { StreamShape } from './streams';
import { rounds, variantOrder } from './stats';

/** The page's first request goes this long after its load event (issue 31's measurement). */
export const COLD_DELAY_MS = 200;

export interface ColdSide {
  bench: BenchBrowser;
  round: number;
  withExtension: boolean;
  /** Which of the bench's loads this is (0 .. loads - 1). */
  load: number;
}

export interface ColdBench {
  name: string;
  /** Stream bodies the server builds before any timing. */
  shapes: readonly StreamShape[];
  /** Fresh browsers per round and side, one measurement each. */
  loads: number;
  /** One measurement in `page`, a fresh browser's only tab, COLD_DELAY_MS after its load. */
  measure(page: Page, side: ColdSide): Promise<void>;
  report(): void;
}

export async function runColdBenches(benches: readonly ColdBench[]): Promise<void> {
  const server = await startBenchServer(benches.flatMap((b) => b.shapes));
  try {
    for (let round = 0; round < rounds(); round++) {
      for (const withExtension of variantOrder(round)) {
        for (const b of benches) {
          for (let load = 0; load < b.loads; load++) {
            const bench = await openBench(server, withExtension);
            try {
              await inPage(bench.page, waitAfterLoad, COLD_DELAY_MS);
              await b.measure(bench.page, { bench, round, withExtension, load });
            } finally {
              await bench.close();
            }
          }
        }
      }
    }
  } finally {
    await server.close();
  }
  for (const b of benches) b.report();
}

/** Runs `bench` on its own when `moduleUrl` is the script Node was started with (`node --import tsx <file>`). */
export function runColdIfMain(moduleUrl: string, bench: () => ColdBench): void {
  const script = process.argv[1];
  if (script && pathToFileURL(resolve(script)).href === moduleUrl) runColdBenches([bench()]).catch(exitOnError);
}
