// Node (in bench/browser/page.bench.ts, or alone under `flock /tmp/browser.lock`): tap-longtasks. The page's long
// tasks while it reads stream A (64 MB, ~300k small events: the per-event case), with the extension against a
// browser without it, and which of them ran tap or bridge code.
/*
 * Why a CPU profile: the page counts its own long tasks ('longtask' entries; 'long-animation-frame' entries are
 * collected too), but Chromium 156 attributes no Long Animation Frame script to a content script: with the tap
 * busy in every chunk, frames list `scripts: []` or only the page's own evaluated code (sourceURL ''). So a CDP
 * Profiler run of the page (500 µs samples) says where the time went: a long task "contains tap or bridge code"
 * when a sample inside it has a chrome-extension:// frame on its stack. The profiler runs in both variants.
 */
import type { CDPSession, Page } from '@playwright/test';
import { inPage } from './in-page';
import { benchClockMark, observeLongTasks, takeLongTasks } from './page-longtasks';
import { readStream } from './page-read';
import { attribute, EXTENSION_URL_PREFIX } from './profile';
import { streamQuery } from './server';
import { checkWhole, SMALL_64MB, type StreamShape } from './streams';
import { formatSummary, log, printBenchLine, printTable, roundsText, summarize } from './stats';
import { runIfMain, type PageBench } from './rounds';

const SAMPLING_US = 500;
const WARM_UP: StreamShape = { events: 10_000, eventBytes: SMALL_64MB.eventBytes };
const LONG_TASK_MS = 50;

interface RoundResult {
  tasks: number;
  longestMs: number;
  /** Long tasks with at least one extension sample inside. */
  withExtensionCode: number;
  /** Long animation frames whose scripts name a chrome-extension:// URL. */
  framesNamingExtension: number;
  frames: number;
  /** Share of the page thread's busy time spent with extension code on the stack. */
  extensionShare: number;
  /** Busy share of the samples inside long tasks: the check that the clocks were lined up (near 100%). */
  busyInsideTasks: number;
}

async function profiled(page: Page, cdp: CDPSession): Promise<RoundResult> {
  await inPage(page, observeLongTasks, undefined);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
  await cdp.send('Profiler.start');
  const mark = await inPage(page, benchClockMark, 20);
  checkWhole(await inPage(page, readStream, { path: streamQuery(SMALL_64MB), stopAfterFirst: false }), SMALL_64MB);
  const seen = await inPage(page, takeLongTasks, undefined);
  const { profile } = await cdp.send('Profiler.stop');
  // Only tasks after the mark: the mark itself is a task of 20 ms, below the long-task threshold, but be exact.
  const tasks = seen.tasks.filter((t) => t.start >= mark.end && t.duration > LONG_TASK_MS);
  const attribution = attribute(profile, mark.start, tasks);
  return {
    tasks: tasks.length,
    longestMs: Math.max(0, ...tasks.map((t) => t.duration)),
    withExtensionCode: attribution.perTask.filter((t) => t.samples > 0).length,
    framesNamingExtension: seen.frames.filter((f) => f.scriptUrls.some((u) => u.startsWith(EXTENSION_URL_PREFIX)))
      .length,
    frames: seen.frames.filter((f) => f.start >= mark.end).length,
    extensionShare: attribution.busyMs > 0 ? attribution.extensionMs / attribution.busyMs : 0,
    busyInsideTasks: attribution.busyInsideTasks,
  };
}

export function tapLongtasks(): PageBench {
  const results: [RoundResult[], RoundResult[]] = [[], []];
  return {
    name: 'tap-longtasks',
    shapes: [WARM_UP, SMALL_64MB],
    async measure(page, { bench, round, withExtension }) {
      checkWhole(await inPage(page, readStream, { path: streamQuery(WARM_UP), stopAfterFirst: false }), WARM_UP);
      const cdp = await bench.session.context.newCDPSession(page);
      try {
        const r = await profiled(page, cdp);
        results[withExtension ? 1 : 0].push(r);
        log(
          `tap-longtasks round ${round + 1} ${withExtension ? 'with   ' : 'without'}: ${r.tasks} long tasks (longest ` +
            `${r.longestMs.toFixed(0)} ms), ${r.withExtensionCode} with extension code; ${r.frames} long frames, ` +
            `${r.framesNamingExtension} naming the extension; extension ${(100 * r.extensionShare).toFixed(1)}% of ` +
            `busy time; ${(100 * r.busyInsideTasks).toFixed(0)}% of samples inside long tasks busy`,
        );
      } finally {
        await cdp.detach();
      }
    },
    report() {
      const pick = (side: 0 | 1, f: (r: RoundResult) => number) => summarize(results[side].map(f));
      const figure = (label: string, f: (r: RoundResult) => number, digits = 0, scale = 1): string[] => [
        label,
        formatSummary(
          pick(0, (r) => f(r) * scale),
          digits,
        ),
        formatSummary(
          pick(1, (r) => f(r) * scale),
          digits,
        ),
      ];
      printTable(
        `tap-longtasks: while the page reads A (64 MB, ~300k events), median [min–max] of ${roundsText()}`,
        ['figure', 'without', 'with extension'],
        [
          figure('long tasks (> 50 ms)', (r) => r.tasks),
          figure('longest task, ms', (r) => r.longestMs),
          figure('long tasks with tap/bridge samples', (r) => r.withExtensionCode),
          figure('long animation frames', (r) => r.frames),
          figure('long frames whose scripts name the extension', (r) => r.framesNamingExtension),
          figure('extension share of page busy time, %', (r) => r.extensionShare, 1, 100),
          figure('busy samples inside long tasks, % (clock check)', (r) => r.busyInsideTasks, 0, 100),
        ],
      );
      const extra = pick(1, (r) => r.tasks).median - pick(0, (r) => r.tasks).median;
      const inExtension = pick(1, (r) => r.withExtensionCode).median;
      printBenchLine('tap-longtasks', [
        { name: 'extra-tasks', value: extra.toFixed(1), target: '<=1', pass: extra <= 1 },
        { name: 'tasks-with-ext-code', value: inExtension.toFixed(1), target: '0', pass: inExtension === 0 },
      ]);
    },
  };
}

runIfMain(import.meta.url, tapLongtasks);
