// Dev script (Node): a devtools.timeline trace of the events table scrolling in the harness, summed by trace event
// (style, layout, paint, script) so a slow frame can be pinned on the rendering step that costs it.
// Usage: npx tsx scripts/panel/trace-scroll.ts [query] [step]   (default synthetic=100k, 1500 px per frame)
import type { CDPSession } from '@playwright/test';
import { launchChromium } from '../../e2e/launcher';
import { buildHarness } from '../../src/panel/dev/build';
import { serveStatic } from './serve';
import { runScript } from './run-script';

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  tid: number;
  args?: { beginData?: { dirtyObjects?: number; totalObjects?: number; partialLayout?: boolean } };
}

async function trace(cdp: CDPSession, run: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => {
    events.push(...(e.value as unknown as TraceEvent[]));
  });
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink,v8.execute',
    transferMode: 'ReportEvents',
  });
  await run();
  await cdp.send('Tracing.end');
  await done;
  return events;
}

async function main(): Promise<void> {
  const query = process.argv[2] ?? 'synthetic=100k';
  const step = Number(process.argv[3] ?? 1500);
  const server = await serveStatic(await buildHarness());
  const browser = await launchChromium({ headless: true });
  try {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1400, height: 820 });
    await page.addInitScript('globalThis.__name = (fn) => fn;');
    await page.goto(`${server.origin}/dev/harness.html?${query}&theme=light`);
    await page.waitForSelector('[data-testid=status-bar][data-analysis=current]', { timeout: 120_000 });
    await page.waitForSelector('[data-testid=event-row]');
    await page.waitForTimeout(500);
    const cdp = await browser.context.newCDPSession(page);
    const events = await trace(cdp, () =>
      page.evaluate(async (px) => {
        const body = document.querySelector('.grid-body') as HTMLElement;
        for (let i = 0; i < 60; i++) {
          body.scrollTop += px;
          await new Promise((r) => requestAnimationFrame(r));
        }
      }, step),
    );
    const layouts = events.filter((e) => e.name === 'Layout' && e.ph === 'X');
    for (const e of layouts.slice(0, 5))
      process.stdout.write(`Layout ${((e.dur ?? 0) / 1000).toFixed(1)} ms ${JSON.stringify(e.args)}\n`);
    const sums = new Map<string, { total: number; count: number; max: number }>();
    for (const e of events) {
      if (e.ph !== 'X' || e.dur === undefined) continue;
      const s = sums.get(e.name) ?? { total: 0, count: 0, max: 0 };
      s.total += e.dur / 1000;
      s.count++;
      s.max = Math.max(s.max, e.dur / 1000);
      sums.set(e.name, s);
    }
    for (const [name, s] of [...sums.entries()].sort((a, b) => b[1].total - a[1].total).slice(0, 25)) {
      process.stdout.write(
        `${s.total.toFixed(1).padStart(9)} ms  ${String(s.count).padStart(5)}x  max ${s.max.toFixed(1).padStart(7)}  ${name}\n`,
      );
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

runScript(main);
