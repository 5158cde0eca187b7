// Dev script (Node): the panel's own figures on big captures, in headless Chromium through the project's launcher.
// For each input (100k small events; 20 events of 4 MiB) and each way it arrives (one snapshot; live deltas in
// batches every 16 ms, as a streaming tab sends them): the longest task on the panel's UI thread (PerformanceObserver
// 'longtask') while receiving and while scrolling, frame times while scrolling, the time from the last delta handed
// to the panel to the final findings on screen (status bar data-analysis=current and the finding row drawn), and
// the JS heap of the UI thread and of the panel's workers against the payload bytes held.
// Usage: npm run panel:perf [-- --only=100k|4mb] [-- --profile]   (--profile writes CPU profiles of the UI thread
// to artifacts/panel-dev/*.cpuprofile and prints the functions with the most self time)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession, Page } from '@playwright/test';
import { launchChromium } from '../../e2e/launcher';
import { buildHarness } from '../../src/panel/dev/build';
import { serveStatic } from './serve';
import { runScript } from './run-script';

const ms = (value: number | undefined, digits = 1) => (value === undefined ? 'n/a' : `${value.toFixed(digits)} ms`);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

interface Input {
  name: string;
  query: string;
  /** Body bytes the capture holds (what "memory <= 2x payload" compares with). */
  payload: number;
  /** The finding that must be on screen once the panel caught up (none for a clean capture). */
  finding?: string;
}

const INPUTS: Input[] = [
  { name: '100k', query: 'synthetic=100k', payload: 0, finding: 'torn-event-reconnect' },
  { name: '4mb', query: 'synthetic=4mb', payload: 0 },
];

declare global {
  interface Window {
    __perf: {
      longtasks: Array<{ start: number; duration: number }>;
      frames: Array<{
        start: number;
        duration: number;
        script: number;
        styleLayout: number;
        render: number;
        invokers: string[];
      }>;
    };
  }
}

/**
 * Installed before any page script: every long task of the page's main thread, with its start, and every animation
 * frame over 50 ms (long-animation-frame) with how its time split: script, style and layout, the rest of rendering.
 */
function observeLongTasks(): void {
  window.__perf = { longtasks: [], frames: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__perf.longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const raw of list.getEntries()) {
      const e = raw as PerformanceEntry & {
        renderStart: number;
        styleAndLayoutStart: number;
        scripts: Array<{ duration: number; invoker: string; sourceFunctionName: string }>;
      };
      const end = e.startTime + e.duration;
      const layoutFrom = e.styleAndLayoutStart > 0 ? e.styleAndLayoutStart : end;
      window.__perf.frames.push({
        start: e.startTime,
        duration: e.duration,
        script: e.scripts.reduce((n, x) => n + x.duration, 0),
        styleLayout: end - layoutFrom,
        render: e.renderStart > 0 ? layoutFrom - e.renderStart : 0,
        invokers: e.scripts.map(
          (x) => `${x.invoker}${x.sourceFunctionName ? ` ${x.sourceFunctionName}` : ''}:${x.duration.toFixed(0)}`,
        ),
      });
    }
  }).observe({ type: 'long-animation-frame', buffered: true });
}

/** Long animation frames in [from, to]: their count and mean split (script / style+layout / other rendering). */
async function frameSplit(page: Page, from: number, to: number): Promise<string> {
  return page.evaluate(
    ([a, b]) => {
      const f = window.__perf.frames.filter((x) => x.start >= a && x.start <= b);
      if (f.length === 0) return 'no frame over 50 ms';
      const mean = (g: (x: (typeof f)[number]) => number) => (f.reduce((n, x) => n + g(x), 0) / f.length).toFixed(0);
      const by = new Map<string, number>();
      for (const x of f)
        for (const i of x.invokers) {
          const [name, d] = [i.slice(0, i.lastIndexOf(':')), i.slice(i.lastIndexOf(':') + 1)];
          by.set(name, (by.get(name) ?? 0) + Number(d));
        }
      const top = [...by.entries()]
        .sort((p, q) => q[1] - p[1])
        .slice(0, 4)
        .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
        .join(', ');
      return `${f.length} frames over 50 ms, mean ${mean((x) => x.duration)} ms: script ${mean((x) => x.script)}, style+layout ${mean((x) => x.styleLayout)}, rendering ${mean((x) => x.render)}; script by invoker: ${top}`;
    },
    [from, to] as const,
  );
}

/** Longest task (ms) that started in [from, to] (performance.now() of the page), and how many there were. */
async function longTasks(page: Page, from: number, to = Infinity): Promise<{ longest: number; count: number }> {
  return page.evaluate(
    ([a, b]) => {
      const tasks = window.__perf.longtasks.filter((t) => t.start >= a && t.start <= b);
      return { longest: Math.max(0, ...tasks.map((t) => t.duration)), count: tasks.length };
    },
    [from, to] as const,
  );
}

/** Waits until the panel shows an analysis of everything it was given, with `finding` on screen; returns when. */
async function caughtUp(page: Page, finding: string | undefined): Promise<number> {
  return page.evaluate(async (rule) => {
    const done = () => {
      const bar = document.querySelector('[data-testid=status-bar]');
      if (document.body.dataset.streamedAt === undefined || bar?.getAttribute('data-analysis') !== 'current')
        return false;
      if (rule === null) return document.querySelector('[data-testid=event-row]') !== null;
      return document.querySelector(`[data-testid=finding][data-rule="${rule}"]`) !== null;
    };
    // Checked each frame and at once after every DOM change: the time is the first moment it held.
    return new Promise<number>((resolve) => {
      const check = () => {
        if (!done()) return false;
        observer.disconnect();
        resolve(performance.now());
        return true;
      };
      const observer = new MutationObserver(check);
      observer.observe(document.body, { subtree: true, childList: true, attributes: true });
      const frame = () => {
        if (!check()) requestAnimationFrame(frame);
      };
      frame();
    });
  }, finding ?? null);
}

interface Scroll {
  median: number | undefined;
  p95: number | undefined;
  max: number | undefined;
  /** Row slots shown without their content yet (rows still on their way from the worker), over all frames. */
  blank: number;
  slots: number;
  from: number;
  to: number;
}

/** Scrolls the events table by `step` px per frame for `frames` frames; frame times from requestAnimationFrame. */
async function scroll(page: Page, step: number, frames: number): Promise<Scroll> {
  return page.evaluate(
    async ([px, n]) => {
      const body = document.querySelector('.grid-body') as HTMLElement;
      body.scrollTop = 0;
      await new Promise((r) => requestAnimationFrame(r));
      await new Promise((r) => setTimeout(r, 300));
      const from = performance.now();
      const times: number[] = [];
      let blank = 0;
      let slots = 0;
      let last = performance.now();
      for (let i = 0; i < n; i++) {
        body.scrollTop += px;
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        times.push(now - last);
        last = now;
        // A row the worker has not sent yet is drawn as a placeholder row (event-row-loading).
        const loading = document.querySelectorAll('[data-testid=event-row-loading]').length;
        blank += loading;
        slots += loading + document.querySelectorAll('[data-testid=event-row]').length;
      }
      const to = performance.now();
      times.sort((a, b) => a - b);
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(times.length * q))];
      return { median: at(0.5), p95: at(0.95), max: times[times.length - 1], blank, slots, from, to };
    },
    [step, frames] as const,
  );
}

/** Frame gaps (requestAnimationFrame) from now until the panel caught up; p95 and worst. */
async function frameGapsUntilCaughtUp(page: Page): Promise<{ p95: number | undefined; max: number | undefined }> {
  return page.evaluate(async () => {
    const gaps: number[] = [];
    let last = performance.now();
    const current = () =>
      document.body.dataset.streamedAt !== undefined &&
      document.querySelector('[data-testid=status-bar]')?.getAttribute('data-analysis') === 'current';
    while (!current()) {
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }
    gaps.sort((a, b) => a - b);
    return { p95: gaps[Math.floor(gaps.length * 0.95)], max: gaps[gaps.length - 1] };
  });
}

interface Heap {
  ui: number;
  workers: number[];
}

/**
 * JS heap after a full GC, of the page and of each dedicated worker. Workers are reached through the page's CDP
 * session (auto-attach, not flattened: Playwright's public CDPSession cannot address child sessions otherwise).
 */
async function heap(cdp: CDPSession): Promise<Heap> {
  await cdp.send('HeapProfiler.collectGarbage');
  // JS heap + Blink's heap + the backing stores of ArrayBuffers (where chunk bytes live), as the bench counts them.
  const total = (u: { usedSize?: unknown; embedderHeapUsedSize?: unknown; backingStorageSize?: unknown }) =>
    Number(u.usedSize ?? 0) + Number(u.embedderHeapUsedSize ?? 0) + Number(u.backingStorageSize ?? 0);
  const ui = total(await cdp.send('Runtime.getHeapUsage'));
  const sessions: string[] = [];
  const onAttach = (e: { sessionId: string; targetInfo: { type: string } }) => {
    if (e.targetInfo.type === 'worker') sessions.push(e.sessionId);
  };
  cdp.on('Target.attachedToTarget', onAttach);
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  await new Promise((r) => setTimeout(r, 300));
  cdp.off('Target.attachedToTarget', onAttach);
  let id = 1;
  const call = (sessionId: string, method: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const mine = id++;
      const timer = setTimeout(() => reject(new Error(`${method}: no answer from the worker`)), 20_000);
      const listen = (e: { sessionId: string; message: string }) => {
        const reply = JSON.parse(e.message) as { id?: number; result?: Record<string, unknown> };
        if (e.sessionId !== sessionId || reply.id !== mine) return;
        clearTimeout(timer);
        cdp.off('Target.receivedMessageFromTarget', listen);
        resolve(reply.result ?? {});
      };
      cdp.on('Target.receivedMessageFromTarget', listen);
      void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: mine, method }) });
    });
  const workers: number[] = [];
  for (const session of sessions) {
    await call(session, 'HeapProfiler.collectGarbage');
    workers.push(total(await call(session, 'Runtime.getHeapUsage')));
  }
  await cdp.send('Target.setAutoAttach', { autoAttach: false, waitForDebuggerOnStart: false, flatten: false });
  return { ui, workers };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** The functions with the most self time in a CPU profile. */
function topSelf(profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] }, n = 12): string[] {
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (deltas[i] ?? 0) / 1000);
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${v.toFixed(1).padStart(8)} ms  ${k}`);
}

async function profiled<T>(cdp: CDPSession | undefined, file: string, run: () => Promise<T>): Promise<T> {
  if (!cdp) return run();
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const result = await run();
  const { profile } = await cdp.send('Profiler.stop');
  writeFileSync(file, JSON.stringify(profile));
  process.stdout.write(`  profile ${file}; most self time:\n`);
  for (const line of topSelf(profile)) process.stdout.write(`    ${line}\n`);
  return result;
}

async function payloadBytes(page: Page): Promise<number> {
  // The harness built the capture; the status bar's wire signature counts the stream bytes the panel holds.
  const wire = await page.locator('[data-testid=status-bar]').getAttribute('data-wire');
  return wire ? (JSON.parse(wire) as { streamBytes: number }).streamBytes : 0;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const profile = args.includes('--profile');
  const out = join(process.cwd(), 'artifacts/panel-dev');
  mkdirSync(out, { recursive: true });
  const server = await serveStatic(await buildHarness());
  const browser = await launchChromium({ headless: true });
  try {
    // The machine's own noise: frame times of a blank page doing nothing, in the same browser.
    const blank = await browser.context.newPage();
    await blank.goto(`${server.origin}/dev/harness.html?fixture=empty&theme=light`);
    const idle = await blank.evaluate(async () => {
      const gaps: number[] = [];
      let last = performance.now();
      for (let i = 0; i < 120; i++) {
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        gaps.push(now - last);
        last = now;
      }
      gaps.sort((a, b) => a - b);
      return { median: gaps[60], p95: gaps[114] };
    });
    await blank.close();
    process.stdout.write(`noise floor: an idle panel's frames, median ${ms(idle.median)}, p95 ${ms(idle.p95)}\n`);
    for (const input of INPUTS.filter((i) => only === undefined || i.name === only)) {
      for (const live of [false, true]) {
        const page = await browser.context.newPage();
        await page.setViewportSize({ width: 1400, height: 820 });
        // tsx (esbuild) wraps named inner functions of evaluated code in __name(fn, "name"): give the page one.
        await page.addInitScript('globalThis.__name = (fn) => fn;');
        await page.addInitScript(observeLongTasks);
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('console', (m) => {
          // The harness has no favicon; nothing else may fail.
          if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) errors.push(m.text());
        });
        const cdp = await browser.context.newCDPSession(page);
        const label = `${input.name} ${live ? 'live' : 'snapshot'}`;
        process.stdout.write(`\n== ${label}\n`);
        const url = `${server.origin}/dev/harness.html?${input.query}&theme=light${live ? '&live=1' : ''}`;
        const receiving = await profiled(
          profile ? cdp : undefined,
          join(out, `perf-${input.name}-${live ? 'live' : 'snapshot'}.cpuprofile`),
          async () => {
            await page.goto(url);
            const gaps = live ? await frameGapsUntilCaughtUp(page) : undefined;
            const doneAt = await caughtUp(page, input.finding);
            const at = await page.evaluate(() => ({
              delivered: Number(document.body.dataset.deliveredAt),
              streamed: Number(document.body.dataset.streamedAt),
            }));
            const tasks = await longTasks(page, at.delivered, doneAt);
            return { gaps, doneAt, at, tasks };
          },
        );
        const { gaps, doneAt, at, tasks } = receiving;
        const split = await frameSplit(page, at.delivered, doneAt);
        input.payload = await payloadBytes(page);
        process.stdout.write(
          `receiving: longest UI task ${ms(tasks.longest, 0)} (${tasks.count} over 50 ms)` +
            (gaps ? `, frames p95 ${ms(gaps.p95)}, worst ${ms(gaps.max, 0)}` : '') +
            `\nlast delta -> final findings on screen: ${ms(doneAt - at.streamed, 0)}` +
            ` (first delta -> final: ${ms(doneAt - at.delivered, 0)})\n  ${split}\n`,
        );
        process.stdout.write(`status: ${await page.locator('.status-bar').innerText()}\n`);
        if (!live) {
          for (const [step, frames] of [
            [1500, 120],
            [60, 120],
          ] as const) {
            const s = await profiled(
              profile ? cdp : undefined,
              join(out, `perf-${input.name}-scroll-${step}.cpuprofile`),
              () => scroll(page, step, frames),
            );
            const t = await longTasks(page, s.from, s.to);
            process.stdout.write(
              `scroll ${frames} frames x ${step} px: frame median ${ms(s.median)}, p95 ${ms(s.p95)}, max ${ms(s.max)}; ` +
                `longest UI task ${ms(t.longest, 0)}; row slots still loading ${s.blank}/${s.slots}\n` +
                `  ${await frameSplit(page, s.from, s.to)}\n`,
            );
          }
          await page.screenshot({ path: join(out, `perf-${input.name}.png`) });
          if (input.name === '100k') {
            // Typing in the filter: the worker filters (UI thread stays free); time to the one matching row.
            const begun = await page.evaluate(() => performance.now());
            await page.locator('.tb-filter').fill('"progress":99999,');
            await page.waitForFunction(
              () =>
                document.querySelectorAll('[data-testid=event-row]').length === 1 &&
                document.querySelector('[data-testid=status-bar]')?.getAttribute('data-analysis') === 'current',
              undefined,
              { timeout: 60_000 },
            );
            const filtered = await page.evaluate(() => performance.now());
            const t = await longTasks(page, begun, filtered);
            process.stdout.write(
              `filter to 1 of 100k rows: ${ms(filtered - begun, 0)}, longest UI task meanwhile ${ms(t.longest, 0)}\n`,
            );
          }
        }
        const h = await heap(cdp);
        const workers = h.workers.reduce((a, b) => a + b, 0);
        process.stdout.write(
          `heap: UI ${mb(h.ui)}, workers ${h.workers.map(mb).join(' + ') || 'none'}; total ${mb(h.ui + workers)} ` +
            `for ${mb(input.payload)} of payload (${((h.ui + workers) / Math.max(1, input.payload)).toFixed(2)}x)\n`,
        );
        process.stdout.write(`page errors: ${errors.length === 0 ? 'none' : errors.join(' | ')}\n`);
        await page.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

runScript(main);
