// Node (benches): the panel under load, shared by panel-100k and panel-4mb. The panel page is open and attached
// while the page reads one stream at full speed; then the panel's table is scrolled. Everything about the panel is
// measured in the panel page (its long tasks, its clock, its DOM) or over CDP on its target; nothing has a "without"
// side but memory, which is taken against the same panel while idle, in the same round.
import type { Page } from '@playwright/test';
import { openBench, openPanel } from './browsers';
import { inPage } from './in-page';
import { heapFigures } from './memory';
import { installPanelWatch, readPanel, scrollTable, takeWatch, type PanelReading, type PanelTask } from './panel-probe';
import { readStream, type ReadResult } from './page-read';
import { startBenchServer, streamQuery, type BenchServer } from './server';
import { checkWhole, type StreamShape } from './streams';
import {
  formatSummary,
  log,
  percentile,
  printBenchLine,
  printTable,
  rounds,
  roundsText,
  summarize,
  type Figure,
} from './stats';

const LONG_TASK_MS = 50;
const FRAME_P95_MS = 17;
const FINAL_MS = 300;
const MEMORY_X = 2;
/** A bound on waiting for the panel: only ever ends a round as "did not catch up", never decides a figure. */
const CATCH_UP_MS = 90_000;
/** Once caught up, the panel must show no further change for this long before its last change is taken as final. */
const SETTLE_MS = 500;
const SCROLL = { count: 120, step: 1500 };
/**
 * The panel page's size: about a DevTools panel docked at the bottom of a 1080p screen. At this height the events
 * table of the 20-event stream overflows too, so scrolling moves it in both benches.
 */
const PANEL_VIEWPORT = { width: 1280, height: 500 };

interface RoundResult {
  counted: number;
  caughtUp: boolean;
  /** Last byte (page clock) -> the panel's last display change (panel clock), ms. */
  finalMs: number;
  receivingMaxTask: number;
  receivingLongTasks: number;
  scrollMaxTask: number;
  frameP95: number;
  scrollable: boolean;
  /** (panel memory after - idle panel memory) / payload bytes. */
  memoryX: number;
  memoryMB: number;
}

function caughtUp(reading: PanelReading, read: ReadResult): boolean {
  return (
    reading.wire !== null &&
    reading.wire.streamBytes === read.bytes &&
    reading.wire.streamsEnded >= 1 &&
    reading.analysisCurrent &&
    reading.pendingBodies === 0 &&
    reading.events === read.events
  );
}

/** Polls the panel until it shows the whole stream and nothing changed for SETTLE_MS, or CATCH_UP_MS passed. */
async function waitForFinal(panel: Page, read: ReadResult): Promise<{ reading: PanelReading; done: boolean }> {
  const deadline = Date.now() + CATCH_UP_MS;
  for (;;) {
    const reading = await inPage(panel, readPanel, undefined);
    if (caughtUp(reading, read)) {
      const watch = await inPage(panel, takeWatch, undefined);
      if (Date.now() - watch.lastChangeEpoch >= SETTLE_MS) return { reading, done: true };
    }
    if (Date.now() > deadline) return { reading, done: false };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const longest = (tasks: readonly PanelTask[]): number => Math.max(0, ...tasks.map((t) => t.duration));
const within = (tasks: readonly PanelTask[], from: number, to: number): PanelTask[] =>
  tasks.filter((t) => t.startEpoch + t.duration >= from && t.startEpoch <= to && t.duration > LONG_TASK_MS);

async function oneRound(shape: StreamShape, server: BenchServer, round: number): Promise<RoundResult> {
  const bench = await openBench(server, true);
  try {
    const panel = await openPanel(bench);
    await panel.setViewportSize(PANEL_VIEWPORT);
    const idle = await heapFigures(bench.session.context, panel);
    await inPage(panel, installPanelWatch, undefined);
    const read = await inPage(bench.page, readStream, { path: streamQuery(shape), stopAfterFirst: false });
    checkWhole(read, shape);
    const { reading, done } = await waitForFinal(panel, read);
    const received = await inPage(panel, takeWatch, undefined);
    const finalEpoch = done ? received.lastChangeEpoch : Date.now();
    const scroll = await inPage(panel, scrollTable, SCROLL);
    const afterScroll = await inPage(panel, takeWatch, undefined);
    const after = await heapFigures(bench.session.context, panel);
    const receivingTasks = within(received.tasks, read.startEpoch, finalEpoch);
    const scrollTasks = within(afterScroll.tasks, scroll.startEpoch, scroll.endEpoch);
    const result: RoundResult = {
      counted: reading.events ?? 0,
      caughtUp: done,
      finalMs: finalEpoch - read.lastByteEpoch,
      receivingMaxTask: longest(receivingTasks),
      receivingLongTasks: receivingTasks.length,
      scrollMaxTask: longest(scrollTasks),
      frameP95: percentile(scroll.frames, 95),
      scrollable: scroll.scrollable,
      memoryX: (after.total - idle.total) / read.bytes,
      memoryMB: after.total / 1e6,
    };
    log(
      `round ${round + 1}: counted ${result.counted}/${read.events}${done ? '' : ' (did not catch up)'}, ` +
        `last byte -> final ${result.finalMs.toFixed(0)} ms (${received.changes} display changes), ` +
        `receiving: ${result.receivingLongTasks} long tasks, longest ${result.receivingMaxTask.toFixed(0)} ms; ` +
        `scrolling${scroll.scrollable ? '' : ' (table fits, nothing to scroll)'}: longest task ` +
        `${result.scrollMaxTask.toFixed(0)} ms, frame p95 ${result.frameP95.toFixed(1)} ms; memory ` +
        `${(idle.total / 1e6).toFixed(1)} MB idle -> ${result.memoryMB.toFixed(1)} MB (${after.detail}) = ` +
        `${result.memoryX.toFixed(2)}x the ${(read.bytes / 1e6).toFixed(1)} MB payload`,
    );
    return result;
  } finally {
    await bench.close();
  }
}

export async function panelBench(name: string, label: string, shape: StreamShape): Promise<void> {
  const server = await startBenchServer([shape]);
  const results: RoundResult[] = [];
  try {
    for (let round = 0; round < rounds(); round++) results.push(await oneRound(shape, server, round));
  } finally {
    await server.close();
  }
  const s = (f: (r: RoundResult) => number) => summarize(results.map(f));
  const counted = Math.min(...results.map((r) => r.counted));
  const maxTask = s((r) => Math.max(r.receivingMaxTask, r.scrollMaxTask)).median;
  const p95 = s((r) => r.frameP95).median;
  const final = s((r) => r.finalMs).median;
  const memory = s((r) => r.memoryX).median;
  const timeouts = results.filter((r) => !r.caughtUp).length;
  printTable(
    `${name}: ${label}, median [min–max] of ${roundsText()} (fresh browser each)` +
      (timeouts > 0 ? `; ${timeouts} round(s) did not catch up within ${CATCH_UP_MS / 1000} s` : ''),
    ['figure', 'panel', 'target'],
    [
      ['events counted (fewest of all rounds)', String(counted), `= ${shape.events}`],
      [
        'longest panel task while receiving, ms',
        formatSummary(
          s((r) => r.receivingMaxTask),
          0,
        ),
        `<= ${LONG_TASK_MS}`,
      ],
      [
        'panel long tasks while receiving',
        formatSummary(
          s((r) => r.receivingLongTasks),
          0,
        ),
        '',
      ],
      [
        'longest panel task while scrolling, ms',
        formatSummary(
          s((r) => r.scrollMaxTask),
          0,
        ),
        `<= ${LONG_TASK_MS}`,
      ],
      ['frame p95 while scrolling, ms', formatSummary(s((r) => r.frameP95)), `<= ${FRAME_P95_MS}`],
      [
        'last byte -> final findings shown, ms',
        formatSummary(
          s((r) => r.finalMs),
          0,
        ),
        `<= ${FINAL_MS}`,
      ],
      [
        'panel memory over idle / payload, x',
        formatSummary(
          s((r) => r.memoryX),
          2,
        ),
        `<= ${MEMORY_X}`,
      ],
      ['panel memory after, MB', formatSummary(s((r) => r.memoryMB)), ''],
    ],
  );
  const figures: Figure[] = [
    { name: 'counted', value: String(counted), target: String(shape.events), pass: counted === shape.events },
    { name: 'task-ms', value: maxTask.toFixed(0), target: `<=${LONG_TASK_MS}`, pass: maxTask <= LONG_TASK_MS },
    { name: 'frame-p95-ms', value: p95.toFixed(1), target: `<=${FRAME_P95_MS}`, pass: p95 <= FRAME_P95_MS },
    { name: 'final-ms', value: final.toFixed(0), target: `<=${FINAL_MS}`, pass: final <= FINAL_MS && timeouts === 0 },
    { name: 'memory-x', value: memory.toFixed(2), target: `<=${MEMORY_X}`, pass: memory <= MEMORY_X },
  ];
  printBenchLine(name, figures);
}
