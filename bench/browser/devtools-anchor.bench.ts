// Node (bench/run.ts, or alone under `flock /tmp/browser.lock`): devtools-anchor (issue 31). Our panel lives inside
// DevTools, so "panel attached" is judged against DevTools itself: the page's read speed with a real DevTools window
// open on it and its Network panel in front (no extension), against the same with the extension loaded and its
// "MCP Streams" panel in front; and, on a stream paced at 20 MB/s, against no DevTools at all. DevTools records the
// network whichever panel is in front (its NetworkManager enables the Network domain for the target as DevTools
// opens), and each arm checks in the frontend which panel is in front, that the network log records and that it holds
// the stream's events. Async stack traces (captured by default while DevTools is open) are measured on and off: the
// setting is DevTools' own, preset in the profile's Preferences.
//
// Arms, each a fresh browser per round, their order rotated from round to round: no DevTools; DevTools + Network
// panel; DevTools + the extension's panel; and both DevTools arms again with async stack traces off (info). In each:
// a warm-up read (10k events); once DevTools (and the panel) hold all of it, the figure: half of A (33 MB, 150k
// events) at full speed; once they hold all of that too (how long that took is shown: DevTools' backlog), the same
// paced at 20 MB/s. (Right after DevTools opens, its network log may not record a stream's events yet: a page read
// then went at full speed, so no read is timed before DevTools holds the warm-up's events.)
import { loadavg } from 'node:os';
import type { BenchBrowser } from './browsers';
import { threadClock } from './cpu';
import {
  ARMS,
  CATCH_UP_MS,
  caughtUp,
  openArm,
  openInspector,
  readMBs,
  STREAM,
  WARM_UP,
  type Arm,
  type ArmKey,
} from './devtools-arms';
import { inPage } from './in-page';
import { readStream } from './page-read';
import { startBenchServer, streamQuery } from './server';
import { checkWhole, PACE_MB_S } from './streams';
import {
  formatSummary,
  log,
  pairedRatios,
  printBenchLine,
  printTable,
  rotated,
  rounds,
  roundsText,
  summarize,
} from './stats';
import { exitOnError } from './rounds';

const TARGET_OVER_DEVTOOLS = 0.95;
const TARGET_PACED_OVER_NONE = 0.9;

interface Figures {
  /** MB/s of the full-speed read and of the paced read. */
  settled: number[];
  /** Seconds from the end of the full-speed read until DevTools (and the panel) held all of it. */
  backlog: number[];
  paced: number[];
  /** The page main thread's CPU ms for the settled read. */
  cpu: number[];
  /** SSE events DevTools' network log held for the settled read. */
  devtoolsEvents: number[];
}

async function measure(bench: BenchBrowser, arm: Arm, into: Figures, round: number): Promise<void> {
  const inspector = await openInspector(bench, arm);
  try {
    const page = bench.page;
    let panelEvents = 0;
    // Right after DevTools opened, its network log may not record a stream's events: warm up until it holds one.
    for (let attempt = 1; ; attempt++) {
      checkWhole(await inPage(page, readStream, { path: streamQuery(WARM_UP), stopAfterFirst: false }), WARM_UP);
      panelEvents += WARM_UP.events;
      const held = await caughtUp(inspector, WARM_UP.events, panelEvents, attempt < 3 ? 30_000 : CATCH_UP_MS);
      if (!inspector || held >= WARM_UP.events || attempt >= 3) break;
      log(`devtools-anchor: DevTools held ${held} of the warm-up's ${WARM_UP.events} events; warming up again`);
    }
    const clock = await threadClock(bench.session.context, page);
    const before = await clock.now();
    const settled = await readMBs(page, STREAM, 0);
    const cpuMs = (await clock.now()) - before;
    await clock.detach();
    panelEvents += STREAM.events;
    const behind = performance.now();
    const held = await caughtUp(inspector, STREAM.events, panelEvents);
    const backlog = (performance.now() - behind) / 1000;
    const paced = await readMBs(page, STREAM, PACE_MB_S);
    into.settled.push(settled);
    into.backlog.push(backlog);
    into.paced.push(paced);
    into.cpu.push(cpuMs);
    into.devtoolsEvents.push(held);
    log(
      `devtools-anchor round ${round + 1} ${arm.label}: ${settled.toFixed(1)} MB/s (page thread CPU ${cpuMs.toFixed(0)} ms` +
        `${inspector ? `, DevTools held ${held} events` : ''}), paced ${paced.toFixed(1)} MB/s${inspector ? `, DevTools caught up ${backlog.toFixed(1)} s after the read` : ''}`,
    );
  } finally {
    await inspector?.detach();
  }
}

function loadText(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

function report(figures: ReadonlyMap<ArmKey, Figures>, loads: readonly string[]): void {
  const of = (key: ArmKey): Figures =>
    figures.get(key) ?? { settled: [], backlog: [], paced: [], cpu: [], devtoolsEvents: [] };
  printTable(
    `devtools-anchor: page read speed of half of A (33 MB, 150k events), MB/s, median [min–max] of ${roundsText()} (fresh browser each)`,
    [
      'arm',
      'full speed',
      'DevTools caught up after, s',
      `paced ${PACE_MB_S} MB/s`,
      'page thread CPU ms',
      'events DevTools held',
    ],
    ARMS.map((arm) => {
      const f = of(arm.key);
      return [
        arm.label,
        formatSummary(summarize(f.settled)),
        arm.devtools ? formatSummary(summarize(f.backlog)) : '',
        formatSummary(summarize(f.paced)),
        formatSummary(summarize(f.cpu), 0),
        arm.devtools ? formatSummary(summarize(f.devtoolsEvents), 0) : '',
      ];
    }),
  );
  const ratio = (a: number[], b: number[]): number => summarize(b).median / summarize(a).median;
  const row = (label: string, a: number[], b: number[], target: string): string[] => [
    label,
    ratio(a, b).toFixed(2),
    formatSummary(pairedRatios(a, b), 2),
    target,
  ];
  const none = of('none');
  const devtools = of('devtools');
  const panel = of('panel');
  const devtoolsOff = of('devtools-async-off');
  const panelOff = of('panel-async-off');
  printTable(
    'devtools-anchor: ratios of the medians (per-round ratios: the arms of one round ran within a minute or two)',
    ['ratio', 'of medians', 'per-round ratio', 'target'],
    [
      row(
        'extension panel / DevTools Network panel, full speed',
        devtools.settled,
        panel.settled,
        `>= ${TARGET_OVER_DEVTOOLS}`,
      ),
      row('extension panel / no DevTools, paced', none.paced, panel.paced, `>= ${TARGET_PACED_OVER_NONE}`),
      row('DevTools Network panel / no DevTools, full speed (info)', none.settled, devtools.settled, ''),
      row('DevTools Network panel / no DevTools, paced (info)', none.paced, devtools.paced, ''),
      row('async off: DevTools / no DevTools, full speed (info)', none.settled, devtoolsOff.settled, ''),
      row('async off: extension panel / DevTools, full speed (info)', devtoolsOff.settled, panelOff.settled, ''),
      row('async off: extension panel / no DevTools, paced (info)', none.paced, panelOff.paced, ''),
      row('async off / on: DevTools, full speed (info)', devtools.settled, devtoolsOff.settled, ''),
      row('page thread CPU, extension panel / DevTools, full speed (info)', devtools.cpu, panel.cpu, ''),
    ],
  );
  log(`load average (1, 5, 15 min) at each round's start: ${loads.join(' | ')}; at the end: ${loadText()}`);
  const overDevtools = ratio(devtools.settled, panel.settled);
  const pacedOverNone = ratio(none.paced, panel.paced);
  printBenchLine('devtools-anchor', [
    {
      name: 'with-extension-over-devtools',
      value: overDevtools.toFixed(2),
      target: `>=${TARGET_OVER_DEVTOOLS}`,
      pass: overDevtools >= TARGET_OVER_DEVTOOLS,
    },
  ]);
  printBenchLine('devtools-anchor-paced', [
    {
      name: 'with-extension-over-no-devtools',
      value: pacedOverNone.toFixed(2),
      target: `>=${TARGET_PACED_OVER_NONE}`,
      pass: pacedOverNone >= TARGET_PACED_OVER_NONE,
    },
  ]);
}

async function main(): Promise<void> {
  const server = await startBenchServer([WARM_UP, STREAM]);
  const figures = new Map<ArmKey, Figures>(
    ARMS.map((arm) => [arm.key, { settled: [], backlog: [], paced: [], cpu: [], devtoolsEvents: [] }]),
  );
  const loads: string[] = [];
  try {
    for (let round = 0; round < rounds(); round++) {
      loads.push(loadText());
      for (const arm of rotated(ARMS, round)) {
        const bench = await openArm(server, arm);
        try {
          const into = figures.get(arm.key);
          if (into) await measure(bench, arm, into, round);
        } finally {
          await bench.close();
        }
      }
    }
  } finally {
    await server.close();
  }
  report(figures, loads);
}

main().catch(exitOnError);
