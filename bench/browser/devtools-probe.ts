// Node (a probe, under `flock /tmp/browser.lock`): where the time goes in devtools-anchor's arms. After the arm's
// warm-up, first read and catch-up (as the bench does), a Chromium trace of every process over the settled read:
// each thread's CPU time in its top-level tasks (the trace's thread durations), named by process (browser, network
// service, each renderer with what it hosts: the bench page, the DevTools frontend, the extension), then the page
// renderer's main thread by event name.
//   npx tsx bench/browser/devtools-probe.ts [arm ...]     (arms of devtools-arms.ts; default: devtools panel)
import type { CDPSession } from '@playwright/test';
import { ARMS, caughtUp, openArm, openInspector, readMBs, STREAM, WARM_UP } from './devtools-arms';
import { startBenchServer } from './server';
import { log } from './stats';

/** PROBE_CATEGORIES adds trace categories (e.g. cc,blink,Blob); PROBE_PROCESS lists one process's events by name too. */
const CATEGORIES = [
  '__metadata',
  'toplevel',
  'devtools.timeline',
  'v8.execute',
  'blink.user_timing',
  process.env.PROBE_CATEGORIES ?? '',
]
  .filter(Boolean)
  .join(',');
const PROCESS = process.env.PROBE_PROCESS;

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown>;
}

async function traced(cdp: CDPSession, run: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (data: { value: object[] }) => events.push(...(data.value as TraceEvent[])));
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  await run();
  await cdp.send('Tracing.end');
  await complete;
  return events;
}

function names(events: readonly TraceEvent[]): { thread: Map<string, string>; process: Map<number, string> } {
  const thread = new Map<string, string>();
  const process = new Map<number, string>();
  const labels = new Map<number, string>();
  for (const e of events) {
    if (e.ph !== 'M') continue;
    const args = e.args as { name?: unknown; labels?: unknown } | undefined;
    if (e.name === 'thread_name' && typeof args?.name === 'string') thread.set(`${e.pid}:${e.tid}`, args.name);
    if (e.name === 'process_name' && typeof args?.name === 'string') process.set(e.pid, args.name);
    if (e.name === 'process_labels' && typeof args?.labels === 'string') labels.set(e.pid, args.labels);
  }
  for (const [pid, label] of labels) process.set(pid, `${process.get(pid) ?? '?'} (${label.slice(0, 60)})`);
  return { thread, process };
}

/** CPU ms per thread in top-level tasks that start within [from, to] µs, and the same per event name on one thread. */
function report(events: readonly TraceEvent[], label: string, mbs: number): void {
  const from = events.find((e) => e.name === 'probe-read-start')?.ts;
  const to = events.find((e) => e.name === 'probe-read-end')?.ts;
  if (from === undefined || to === undefined) return log(`${label}: marks missing from the trace`);
  const { thread, process } = names(events);
  const perThread = new Map<string, number>();
  /** Wall time in the same tasks: far above the CPU time, the thread waited (blocked, or no core free). */
  const wall = new Map<string, number>();
  const inWindow = (e: TraceEvent): boolean => e.ph === 'X' && e.ts >= from && e.ts <= to;
  for (const e of events) {
    if (!inWindow(e) || e.cat !== 'toplevel') continue;
    const key = `${e.pid}:${e.tid}`;
    perThread.set(key, (perThread.get(key) ?? 0) + (e.tdur ?? e.dur ?? 0));
    wall.set(key, (wall.get(key) ?? 0) + (e.dur ?? 0));
  }
  const pagePid = events.find((e) => e.name === 'probe-read-start')?.pid;
  const pageTid = events.find((e) => e.name === 'probe-read-start')?.tid;
  log(`\n=== ${label}: ${mbs.toFixed(1)} MB/s, read ${((to - from) / 1000).toFixed(0)} ms; CPU ms in top-level tasks:`);
  const perProcess = new Map<number, number>();
  for (const [key, us] of perThread) {
    const pid = Number(key.split(':')[0]);
    perProcess.set(pid, (perProcess.get(pid) ?? 0) + us);
  }
  for (const [pid, us] of [...perProcess].sort((a, b) => b[1] - a[1])) {
    log(`  ${(us / 1000).toFixed(0).padStart(6)} ms  ${pid === pagePid ? '[page] ' : ''}${process.get(pid) ?? pid}`);
    const threads = [...perThread].filter(([key]) => Number(key.split(':')[0]) === pid).sort((a, b) => b[1] - a[1]);
    for (const [key, t] of threads.slice(0, 4)) {
      const w = ((wall.get(key) ?? 0) / 1000).toFixed(0);
      if (t >= 20_000) log(`      ${(t / 1000).toFixed(0).padStart(6)} ms  ${thread.get(key) ?? key} (wall ${w} ms)`);
    }
  }
  if (PROCESS) {
    for (const [pid, name] of process) {
      if (!name.includes(PROCESS)) continue;
      for (const [key, label] of thread) {
        if (Number(key.split(':')[0]) !== pid || (perThread.get(key) ?? 0) < 100_000) continue;
        byEvent(events, (e) => inWindow(e) && `${e.pid}:${e.tid}` === key && e.cat !== 'toplevel', `${name} ${label}`);
      }
    }
  }
  byEvent(
    events,
    (e) => inWindow(e) && e.pid === pagePid && e.tid === pageTid && e.cat !== 'toplevel',
    'page main thread',
  );
}

/** CPU and wall ms per event name among `events` that `pick` takes (nested events counted in each: for where, not a sum). */
function byEvent(events: readonly TraceEvent[], pick: (e: TraceEvent) => boolean, label: string): void {
  const byName = new Map<string, { us: number; wall: number; n: number }>();
  for (const e of events) {
    if (!pick(e)) continue;
    const entry = byName.get(e.name) ?? { us: 0, wall: 0, n: 0 };
    entry.us += e.tdur ?? e.dur ?? 0;
    entry.wall += e.dur ?? 0;
    entry.n++;
    byName.set(e.name, entry);
  }
  log(`  ${label} by event (CPU ms, wall ms, count; nested events overlap):`);
  for (const [name, { us, wall: w, n }] of [...byName].sort((a, b) => b[1].wall - a[1].wall).slice(0, 12)) {
    log(
      `      ${(us / 1000).toFixed(0).padStart(6)} ms ${(w / 1000).toFixed(0).padStart(6)} ms ${String(n).padStart(7)}x  ${name}`,
    );
  }
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const arms = ARMS.filter((a) => (wanted.length > 0 ? wanted.includes(a.key) : ['devtools', 'panel'].includes(a.key)));
  const server = await startBenchServer([WARM_UP, STREAM]);
  try {
    for (const arm of arms) {
      const bench = await openArm(server, arm);
      const inspector = await openInspector(bench, arm);
      try {
        await readMBs(bench.page, WARM_UP, 0);
        await readMBs(bench.page, STREAM, 0);
        await caughtUp(inspector, STREAM.events, WARM_UP.events + STREAM.events);
        const browser = bench.session.context.browser();
        if (!browser) throw new Error('no browser');
        const cdp = await browser.newBrowserCDPSession();
        let mbs = 0;
        const events = await traced(cdp, async () => {
          await bench.page.evaluate(() => performance.mark('probe-read-start'));
          mbs = await readMBs(bench.page, STREAM, 0);
          await bench.page.evaluate(() => performance.mark('probe-read-end'));
        });
        await cdp.detach();
        report(events, arm.label, mbs);
      } finally {
        await inspector?.detach();
        await bench.close();
      }
    }
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
