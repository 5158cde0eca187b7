// Node (a probe, under `flock /tmp/browser.lock`): where the first stream of a fresh browser's page spends its time
// from fetch() to the first chunk, with and without the extension. A Chromium trace (every process: page renderer,
// extension service worker, browser, network) over that window, printed as each thread's events in it.
//   npx tsx bench/browser/cold-probe.ts [runs] [with|without|both]
import type { CDPSession } from '@playwright/test';
import { openBench } from './browsers';
import { COLD_DELAY_MS } from './cold';
import { inPage } from './in-page';
import { waitAfterLoad } from './page-read';
import { startBenchServer, streamQuery } from './server';
import { SMALL_64MB } from './streams';
import { log } from './stats';

const CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'v8.execute',
  'blink.user_timing',
  'loading',
  'extensions',
  'ServiceWorker',
  'navigation',
  'ipc',
  'mojom',
  'net',
  'v8.compile',
  'disabled-by-default-v8.compile',
].join(',');

/** Window after the first chunk, shortest event shown, page thread only: PROBE_AFTER_MS, PROBE_MIN_US, PROBE_ALL. */
const AFTER_US = Number(process.env.PROBE_AFTER_MS ?? '30') * 1000;
const MIN_US = Number(process.env.PROBE_MIN_US ?? '100');
const ONLY_PAGE = process.env.PROBE_ALL !== '1';
const CPU = process.env.PROBE_CPU === '1';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown>;
}

/** The page's first stream: marks around fetch() and the first chunk, so the trace shows both. */
async function firstChunk(path: string): Promise<number> {
  const oneChunk = async (name: string): Promise<number> => {
    performance.mark(`${name}-fetch`);
    const t0 = performance.now();
    const response = await fetch(path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'mcp-session-id': 'bench-session',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x', arguments: {} } }),
    });
    performance.mark(`${name}-response`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const { value } = await reader.read();
    performance.mark(`${name}-first-chunk`, { detail: value?.byteLength ?? 0 });
    const ms = performance.now() - t0;
    await reader.cancel();
    return ms;
  };
  const ms = await oneChunk('cold');
  // A second stream once the page is quiet: what the same work costs warm.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await oneChunk('warm');
  return ms;
}

async function trace(
  cdp: CDPSession,
  run: () => Promise<number>,
): Promise<{ events: TraceEvent[]; ms: number; profile: CpuProfile | null }> {
  const events: TraceEvent[] = [];
  // PROBE_CPU=1 adds a 50 µs V8 sampling profile (it slows the page several times over: for where, not how long).
  if (CPU) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
    await cdp.send('Profiler.start');
  }
  cdp.on('Tracing.dataCollected', (data: { value: object[] }) => events.push(...(data.value as TraceEvent[])));
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  const ms = await run();
  await cdp.send('Tracing.end');
  await complete;
  const profile = CPU ? ((await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile }).profile : null;
  return { events, ms, profile };
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  startTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** Self time per function (and the extension's share) in [from, to) µs on the trace clock. */
function selfTimes(profile: CpuProfile, from: number, to: number, label: string): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const totals = new Map<string, number>();
  let time = profile.startTime;
  let extension = 0;
  const deltas = profile.timeDeltas ?? [];
  for (const [i, id] of (profile.samples ?? []).entries()) {
    time += deltas[i] ?? 0;
    const span = deltas[i + 1] ?? 0;
    if (time < from || time >= to) continue;
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)') continue;
    let ext = false;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
      if (byId.get(at)?.callFrame.url.startsWith('chrome-extension://')) ext = true;
    if (ext) extension += span;
    const key = `${frame.functionName || '(anon)'} ${frame.url.replace(/^.*\/\/[^/]+/, '')}:${frame.lineNumber}`;
    totals.set(key, (totals.get(key) ?? 0) + span);
  }
  const top = [...totals].sort((a, b) => b[1] - a[1]).slice(0, 12);
  const busy = [...totals.values()].reduce((a, b) => a + b, 0);
  log(`  cpu ${label}: busy ${(busy / 1000).toFixed(1)} ms, extension on stack ${(extension / 1000).toFixed(1)} ms`);
  for (const [key, us] of top) log(`      ${(us / 1000).toFixed(2).padStart(6)} ms  ${key}`);
}

function threadNames(events: readonly TraceEvent[]): Map<string, string> {
  const names = new Map<string, string>();
  const procs = new Map<number, string>();
  for (const e of events) {
    if (e.ph !== 'M') continue;
    const raw = (e.args as { name?: unknown } | undefined)?.name;
    const name = typeof raw === 'string' ? raw : '';
    if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, name);
    if (e.name === 'process_name') procs.set(e.pid, name);
  }
  for (const [key, name] of names) names.set(key, `${procs.get(Number(key.split(':')[0])) ?? '?'}/${name}`);
  return names;
}

function detail(e: TraceEvent): string {
  const data = (e.args as { data?: Record<string, unknown> } | undefined)?.data;
  if (!data) return '';
  const url = typeof data.url === 'string' ? data.url : typeof data.fileName === 'string' ? data.fileName : '';
  const fn = typeof data.functionName === 'string' ? data.functionName : '';
  return [fn, url.replace(/^.*\/\/[^/]+/, '')].filter(Boolean).join(' ');
}

function report(events: readonly TraceEvent[], label: string, ms: number): void {
  const mark = (name: string): number | undefined => events.find((e) => e.name === name)?.ts;
  const size = events.find((e) => e.name === 'cold-first-chunk')?.args;
  log(`  first chunk mark args: ${JSON.stringify(size)}`);
  const from = mark('cold-fetch');
  const to = mark('cold-first-chunk');
  if (from === undefined || to === undefined) return log(`${label}: marks missing from the trace`);
  log(`\n=== ${label}: first chunk after ${ms.toFixed(1)} ms (trace: ${((to - from) / 1000).toFixed(1)} ms)`);
  const response = mark('cold-response');
  if (response !== undefined) log(`  response resolved at +${((response - from) / 1000).toFixed(1)} ms`);
  const names = threadNames(events);
  // The extension's tasks on the page's thread over the whole trace: the bridge's message handler and the tap's timer.
  const page0 = events.find((e) => e.name === 'cold-fetch');
  const warm = mark('warm-fetch');
  const warmChunk = mark('warm-first-chunk');
  if (warm !== undefined && warmChunk !== undefined)
    log(
      `  warm stream: first chunk at +${((warmChunk - warm) / 1000).toFixed(1)} ms after its fetch (at +${((warm - from) / 1000).toFixed(0)})`,
    );
  for (const e of events) {
    if (e.pid !== page0?.pid || e.tid !== page0.tid || e.ph !== 'X') continue;
    if (e.name !== 'FunctionCall' && e.name !== 'TimerFire' && e.name !== 'EvaluateScript') continue;
    log(
      `    task +${((e.ts - from) / 1000).toFixed(1).padStart(7)} ${((e.dur ?? 0) / 1000).toFixed(2).padStart(6)} ms ${e.name} ${detail(e)}`,
    );
  }
  const page = events.find((e) => e.name === 'cold-fetch');
  const lo = from - 2000;
  const hi = to + AFTER_US;
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph === 'M' || e.ts > hi) continue;
    const end = e.ts + (e.dur ?? 0);
    if (end < lo) continue;
    if (ONLY_PAGE && (e.pid !== page?.pid || e.tid !== page.tid)) continue;
    if (e.ph === 'X' && (e.dur ?? 0) < MIN_US) continue;
    if (e.ph !== 'X' && e.ph !== 'I' && e.ph !== 'i' && e.ph !== 'R' && e.ph !== 'n') continue;
    const key = `${e.pid}:${e.tid}`;
    const list = byThread.get(key) ?? [];
    list.push(e);
    byThread.set(key, list);
  }
  for (const [key, list] of byThread) {
    log(`  -- ${names.get(key) ?? key}`);
    for (const e of list.sort((a, b) => a.ts - b.ts).slice(0, 200)) {
      const at = ((e.ts - from) / 1000).toFixed(2).padStart(8);
      const dur = e.dur !== undefined ? `${(e.dur / 1000).toFixed(2)} ms` : e.ph;
      log(`    ${at}  ${dur.padStart(9)}  ${e.cat}  ${e.name}  ${detail(e)}`);
    }
  }
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? '1');
  const which = process.argv[3] ?? 'both';
  const sides = which === 'both' ? [false, true] : [which === 'with'];
  const server = await startBenchServer([SMALL_64MB]);
  try {
    for (let r = 0; r < runs; r++) {
      for (const withExtension of sides) {
        const bench = await openBench(server, withExtension);
        try {
          await inPage(bench.page, waitAfterLoad, COLD_DELAY_MS);
          const cdp = await bench.session.context.newCDPSession(bench.page);
          if (process.env.PROBE_LOAD === '1') {
            // What the extension's scripts cost the page's load: their evaluation at document_start, on a reload.
            const { events } = await trace(cdp, async () => {
              await bench.page.reload();
              return 0;
            });
            const scripts = events.filter((e) => e.ph === 'X' && /src\/(tap|bridge)\//.test(detail(e)));
            for (const e of scripts) log(`  load: ${e.name} ${detail(e)} ${((e.dur ?? 0) / 1000).toFixed(2)} ms`);
            continue;
          }
          const { events, ms, profile } = await trace(cdp, () =>
            inPage(bench.page, firstChunk, streamQuery(SMALL_64MB)),
          );
          report(events, `run ${r + 1} ${withExtension ? 'with' : 'without'} the extension`, ms);
          const at = (name: string): number => events.find((e) => e.name === name)?.ts ?? Number.NaN;
          if (profile) {
            const page0 = events.find((e) => e.name === 'cold-fetch');
            for (const e of events) {
              if (e.pid !== page0?.pid || e.tid !== page0.tid || e.ph !== 'X' || (e.dur ?? 0) < 1000) continue;
              if (e.name !== 'TimerFire' && !(e.name === 'FunctionCall' && detail(e).includes('bridge'))) continue;
              selfTimes(
                profile,
                e.ts,
                e.ts + (e.dur ?? 0),
                `${e.name} at +${((e.ts - at('cold-fetch')) / 1000).toFixed(1)}`,
              );
            }
            selfTimes(profile, at('cold-fetch'), at('cold-response'), 'fetch() -> response');
            selfTimes(profile, at('cold-response'), at('cold-first-chunk'), 'response -> first chunk');
            selfTimes(profile, at('cold-first-chunk'), at('cold-first-chunk') + AFTER_US, 'after the first chunk');
          }
        } finally {
          await bench.close();
        }
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
