// Dev script (Node): the real extension's panel page while its tab reads one stream at full speed (the shape of the
// panel-100k / panel-4mb benches, reusing their server and page code read-only), with a CPU profile of the panel's
// UI thread: its long tasks, when the panel caught up, and the functions with the most self time. For finding what
// the bench's long tasks are made of. Builds the Chrome extension unminified into a private directory.
// Usage: npx tsx scripts/panel/profile-attached.ts [100k|4mb]
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBench, openPanel } from '../../bench/browser/browsers';
import { inPage } from '../../bench/browser/in-page';
import { readStream } from '../../bench/browser/page-read';
import { startBenchServer, streamQuery } from '../../bench/browser/server';
import { BIG_64MB, SMALL_64MB, type StreamShape } from '../../bench/browser/streams';
import { runScript } from './run-script';

const dist = '/tmp/mcp-stream-inspector-profile-chrome';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: Record<string, unknown> & {
    data?: { frames?: Array<{ url: string; processId: number }>; name?: string; type?: string; functionName?: string };
    name?: string;
    beginData?: { dirtyObjects?: number; totalObjects?: number };
    elementCount?: number;
  };
}

/** The panel renderer's main-thread tasks over 50 ms, each with what ran inside it. */
function summarizeTrace(events: TraceEvent[]): void {
  let pid: number | undefined;
  for (const e of events) {
    for (const f of e.args?.data?.frames ?? []) if (f.url.includes('panel.html')) pid = f.processId;
  }
  const main = events.find((e) => e.pid === pid && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')?.tid;
  const mine = events.filter((e) => e.pid === pid && e.tid === main && e.ph === 'X');
  const long = mine.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > 50_000);
  process.stdout.write(`panel renderer pid ${pid}, main tid ${main}: ${long.length} tasks over 50 ms\n`);
  for (const t of long) {
    const end = t.ts + (t.dur ?? 0);
    const inside = mine.filter((e) => e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= end);
    const sums = new Map<string, number>();
    for (const e of inside) {
      const d = e.args?.data;
      const name =
        e.name === 'FunctionCall'
          ? `FunctionCall ${d?.functionName ?? ''}`
          : e.name === 'EventDispatch'
            ? `EventDispatch ${d?.type ?? ''}`
            : e.name;
      sums.set(name, (sums.get(name) ?? 0) + (e.dur ?? 0) / 1000);
    }
    const layouts = inside
      .filter((e) => e.name === 'Layout')
      .map((e) => `${e.args?.beginData?.dirtyObjects}/${e.args?.beginData?.totalObjects}`);
    const styles = inside.filter((e) => e.name === 'UpdateLayoutTree').map((e) => e.args?.elementCount ?? '?');
    process.stdout.write(
      `task ${((t.dur ?? 0) / 1000).toFixed(0)} ms (layout ${layouts.join(' ')}; restyled ${styles.join(' ')}):\n`,
    );
    for (const [name, ms] of [...sums.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8))
      process.stdout.write(`  ${ms.toFixed(1).padStart(7)} ms  ${name}\n`);
  }
}

function topSelf(profile: { nodes: Node[]; samples?: number[]; timeDeltas?: number[] }, n = 25): string[] {
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  (profile.samples ?? []).forEach((id, i) => {
    const f = byId.get(id)?.callFrame;
    if (!f) return;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${v.toFixed(1).padStart(8)} ms  ${k}`);
}

interface Frame {
  start: number;
  duration: number;
  /** Style and layout, and the rest of rendering (paint, commit), ms. */
  styleLayout: number;
  render: number;
  blocking: number;
  scripts: Array<{ invoker: string; source: string; duration: number; forcedLayout: number }>;
}

/** Long tasks, and long animation frames with what their time went to (script by invoker, style/layout, render). */
function installWatch(): void {
  const store = globalThis as unknown as { __tasks: Array<[number, number]>; __frames: Frame[] };
  store.__tasks = [];
  store.__frames = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) store.__tasks.push([performance.timeOrigin + e.startTime, e.duration]);
  }).observe({ type: 'longtask' });
  new PerformanceObserver((list) => {
    for (const raw of list.getEntries()) {
      const e = raw as PerformanceEntry & {
        renderStart: number;
        styleAndLayoutStart: number;
        blockingDuration: number;
        scripts: Array<{
          invoker: string;
          sourceURL: string;
          sourceFunctionName: string;
          duration: number;
          forcedStyleAndLayoutDuration: number;
        }>;
      };
      const end = e.startTime + e.duration;
      store.__frames.push({
        start: performance.timeOrigin + e.startTime,
        duration: e.duration,
        styleLayout: e.styleAndLayoutStart > 0 ? end - e.styleAndLayoutStart : 0,
        render: e.renderStart > 0 ? (e.styleAndLayoutStart > 0 ? e.styleAndLayoutStart : end) - e.renderStart : 0,
        blocking: e.blockingDuration,
        scripts: e.scripts.map((s) => ({
          invoker: s.invoker,
          source: `${s.sourceFunctionName} ${s.sourceURL.split('/').pop() ?? ''}`,
          duration: s.duration,
          forcedLayout: s.forcedStyleAndLayoutDuration,
        })),
      });
    }
  }).observe({ type: 'long-animation-frame', buffered: true });
}

/** Each change of the status bar's data-analysis, with when it happened (performance.now()). */
function watchAnalysis(): void {
  const store = globalThis as unknown as { __analysis: Array<[number, string]> };
  store.__analysis = [];
  const bar = document.querySelector('[data-testid=status-bar]');
  if (!bar) return;
  new MutationObserver(() => {
    store.__analysis.push([performance.now(), `${bar.getAttribute('data-analysis')} ${bar.textContent ?? ''}`]);
  }).observe(bar, { attributes: true, childList: true, subtree: true, characterData: true });
}

function readTasks(): { tasks: Array<[number, number]>; frames: Frame[] } {
  const store = globalThis as unknown as { __tasks: Array<[number, number]>; __frames: Frame[] };
  return { tasks: store.__tasks, frames: store.__frames };
}

async function main(): Promise<void> {
  const which = process.argv[2] ?? '100k';
  const shape: StreamShape =
    which === '4mb'
      ? { events: 20, eventBytes: BIG_64MB.eventBytes }
      : { events: 100_000, eventBytes: SMALL_64MB.eventBytes };
  execFileSync('npx', ['vite', 'build', '--outDir', dist, '--minify', 'false'], {
    env: { ...process.env, TARGET: 'chrome' },
    stdio: 'ignore',
  });
  process.env.BENCH_EXTENSION_DIR = dist;
  const out = join(process.cwd(), 'artifacts/panel-dev');
  mkdirSync(out, { recursive: true });
  const server = await startBenchServer([shape]);
  const bench = await openBench(server, true);
  try {
    const panel = await openPanel(bench);
    await panel.setViewportSize({ width: 1280, height: 500 });
    await inPage(panel, installWatch, undefined);
    await inPage(panel, watchAnalysis, undefined);
    const cdp = await bench.session.context.newCDPSession(panel);
    const tracing = process.argv.includes('--trace');
    const traceEvents: TraceEvent[] = [];
    if (tracing) {
      cdp.on('Tracing.dataCollected', (e) => {
        traceEvents.push(...(e.value as unknown as TraceEvent[]));
      });
      await cdp.send('Tracing.start', {
        categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8,toplevel,ipc,mojom',
        transferMode: 'ReportEvents',
      });
    } else {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
      await cdp.send('Profiler.start');
    }
    const read = await inPage(bench.page, readStream, { path: streamQuery(shape), stopAfterFirst: false });
    const deadline = Date.now() + 60_000;
    let caughtAt = 0;
    while (Date.now() < deadline) {
      const state = await panel.evaluate(() => {
        const bar = document.querySelector('[data-testid=status-bar]');
        return { analysis: bar?.getAttribute('data-analysis'), wire: bar?.getAttribute('data-wire') ?? 'null' };
      });
      const wire = JSON.parse(state.wire) as { streamBytes: number } | null;
      if (state.analysis === 'current' && wire?.streamBytes === read.bytes) {
        caughtAt = Date.now();
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    let profile: unknown = { nodes: [] };
    if (tracing) {
      const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
      await cdp.send('Tracing.end');
      await done;
      summarizeTrace(traceEvents);
    } else {
      profile = (await cdp.send('Profiler.stop')).profile;
      writeFileSync(join(out, `attached-${which}.cpuprofile`), JSON.stringify(profile));
    }
    const { tasks, frames } = await inPage(panel, readTasks, undefined);
    for (const f of frames.filter((x) => x.duration > 50)) {
      process.stdout.write(
        `frame at ${(f.start - read.startEpoch).toFixed(0)}: ${f.duration.toFixed(0)} ms (blocking ${f.blocking.toFixed(0)}), ` +
          `render ${f.render.toFixed(0)}, style+layout ${f.styleLayout.toFixed(0)}; scripts: ` +
          f.scripts
            .map(
              (x) => `${x.invoker} [${x.source}] ${x.duration.toFixed(0)} (forced layout ${x.forcedLayout.toFixed(0)})`,
            )
            .join('; ') +
          '\n',
      );
    }
    process.stdout.write(
      `read ${read.bytes} bytes, ${read.events} events in ${read.totalMs.toFixed(0)} ms; caught up ${caughtAt ? `${caughtAt - read.lastByteEpoch} ms after the last byte` : 'never'}\n`,
    );
    process.stdout.write(
      `long tasks (ms after fetch start, duration): ${tasks.map(([s, d]) => `${(s - read.startEpoch).toFixed(0)}:${d.toFixed(0)}`).join(' ')}\n`,
    );
    for (const line of topSelf(profile as never)) process.stdout.write(`${line}\n`);
    const changes = await panel.evaluate(
      () => (globalThis as unknown as { __analysis: Array<[number, string]> }).__analysis,
    );
    const origin = await panel.evaluate(() => performance.timeOrigin);
    for (const [at, text] of changes.slice(-4))
      process.stdout.write(
        `  ${(origin + at - read.lastByteEpoch).toFixed(0)} ms after last byte: ${text.slice(0, 120)}\n`,
      );
  } finally {
    await bench.close();
    await server.close();
  }
}

runScript(main);
