// Dev script (Node): which work makes the panel's long tasks. Loads the harness in headless Chromium through the
// project's launcher with a devtools.timeline trace running, then lists every main-thread task over 50 ms with what
// ran inside it (script by function, style, layout, paint, GC), so a long task can be pinned on its cause.
// Usage: npx tsx scripts/panel/trace-tasks.ts [query] [--scroll]   (default synthetic=100k&live=1)
import type { CDPSession } from '@playwright/test';
import { launchChromium } from '../../e2e/launcher';
import { buildHarness } from '../../src/panel/dev/build';
import { serveStatic } from './serve';
import { runScript } from './run-script';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: {
    data?: { functionName?: string; url?: string; lineNumber?: number; type?: string };
    beginData?: { dirtyObjects?: number; totalObjects?: number };
    elementCount?: number;
  };
}

async function trace(cdp: CDPSession, run: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => {
    events.push(...(e.value as unknown as TraceEvent[]));
  });
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8,blink.user_timing',
    transferMode: 'ReportEvents',
  });
  await run();
  await cdp.send('Tracing.end');
  await done;
  return events;
}

function label(e: TraceEvent): string {
  const d = e.args?.data;
  if (e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name === 'v8.callFunction')
    return `${e.name} ${d?.functionName ?? ''} ${(d?.url ?? '').split('/').pop() ?? ''}:${d?.lineNumber ?? ''}`;
  if (e.name === 'EventDispatch') return `EventDispatch ${d?.type ?? ''}`;
  return e.name;
}

async function main(): Promise<void> {
  const query = process.argv.find((a, i) => i > 1 && !a.startsWith('--')) ?? 'synthetic=100k&live=1';
  const scroll = process.argv.includes('--scroll');
  const server = await serveStatic(await buildHarness());
  const browser = await launchChromium({ headless: true });
  try {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1400, height: 820 });
    await page.addInitScript('globalThis.__name = (fn) => fn;');
    const cdp = await browser.context.newCDPSession(page);
    const load = async () => {
      await page.goto(`${server.origin}/dev/harness.html?${query}&theme=light`);
      await page.waitForSelector('[data-testid=status-bar][data-analysis=current]', { timeout: 120_000 });
      await page.waitForTimeout(300);
    };
    const events = scroll
      ? await (async () => {
          await load();
          return trace(cdp, () =>
            page.evaluate(async () => {
              const body = document.querySelector('.grid-body') as HTMLElement;
              for (let i = 0; i < 120; i++) {
                body.scrollTop += 1500;
                await new Promise((r) => requestAnimationFrame(r));
              }
            }),
          );
        })()
      : await trace(cdp, load);
    // The renderer's main thread: the one running the most RunTask time in the page's process.
    const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.dur !== undefined);
    const byThread = new Map<string, number>();
    for (const t of tasks) byThread.set(`${t.pid}:${t.tid}`, (byThread.get(`${t.pid}:${t.tid}`) ?? 0) + (t.dur ?? 0));
    const threadNames = new Map<string, string>();
    for (const e of events)
      if (e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, String((e.args as { name?: string })?.name));
    const main = [...byThread.entries()]
      .filter(([k]) => threadNames.get(k) === 'CrRendererMain')
      .sort((a, b) => b[1] - a[1])[0]?.[0];
    const inMain = (e: TraceEvent) => `${e.pid}:${e.tid}` === main;
    const long = tasks.filter((t) => inMain(t) && (t.dur ?? 0) > 50_000);
    process.stdout.write(`${long.length} tasks over 50 ms on the panel's main thread\n`);
    const nested = events.filter((e) => e.ph === 'X' && inMain(e) && e.name !== 'RunTask');
    for (const t of long) {
      const end = t.ts + (t.dur ?? 0);
      const inside = nested.filter((e) => e.ts >= t.ts && e.ts + (e.dur ?? 0) <= end);
      const sums = new Map<string, number>();
      for (const e of inside) sums.set(label(e), (sums.get(label(e)) ?? 0) + (e.dur ?? 0) / 1000);
      const layouts = inside
        .filter((e) => e.name === 'Layout')
        .map((e) => `${e.args?.beginData?.dirtyObjects}/${e.args?.beginData?.totalObjects}`);
      const styles = events
        .filter((e) => inMain(e) && e.name === 'UpdateLayoutTree' && e.ts >= t.ts && e.ts <= end)
        .map((e) => e.args?.elementCount ?? '?');
      process.stdout.write(
        `\ntask ${((t.dur ?? 0) / 1000).toFixed(0)} ms (layout dirty/total ${layouts.join(' ')}; restyled ${styles.join(' ')}):\n`,
      );
      for (const [name, ms] of [...sums.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10))
        process.stdout.write(`  ${ms.toFixed(1).padStart(7)} ms  ${name}\n`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

runScript(main);
