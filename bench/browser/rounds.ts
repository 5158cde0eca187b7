// Node (benches): the rounds the page-side benches (tap-*, panel-attached) share. Each round starts a fresh browser
// per side (without and with the extension, alternating which goes first) and gives every bench a fresh tab of it in
// turn, so five benches pay for ten browser starts, not fifty, and each still compares both sides under the same
// machine load.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { newBenchPage, openBench, type BenchBrowser } from './browsers';
import { startBenchServer } from './server';
import type { StreamShape } from './streams';
import { rounds, variantOrder } from './stats';

export interface Side {
  bench: BenchBrowser;
  round: number;
  withExtension: boolean;
}

export interface PageBench {
  name: string;
  /** Stream bodies the server builds before any timing. */
  shapes: readonly StreamShape[];
  /** One round's measurement on one side, in `page`: a fresh tab on the bench page. */
  measure(page: Page, side: Side): Promise<void>;
  /** Prints the bench's table and its BENCH line. */
  report(): void;
}

export async function runPageBenches(benches: readonly PageBench[]): Promise<void> {
  const server = await startBenchServer(benches.flatMap((b) => b.shapes));
  try {
    for (let round = 0; round < rounds(); round++) {
      for (const withExtension of variantOrder(round)) {
        const bench = await openBench(server, withExtension);
        try {
          for (const b of benches) {
            const page = await newBenchPage(bench, server);
            try {
              await b.measure(page, { bench, round, withExtension });
            } finally {
              await page.close();
            }
          }
        } finally {
          await bench.close();
        }
      }
    }
  } finally {
    await server.close();
  }
  for (const b of benches) b.report();
}

export function exitOnError(error: unknown): never {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}

/** Runs `bench` on its own when `moduleUrl` is the script Node was started with (`node --import tsx <file>`). */
export function runIfMain(moduleUrl: string, bench: () => PageBench): void {
  const script = process.argv[1];
  if (script && pathToFileURL(resolve(script)).href === moduleUrl) runPageBenches([bench()]).catch(exitOnError);
}
