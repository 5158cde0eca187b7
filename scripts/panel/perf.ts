// Dev script (Node): the 100k-event synthetic capture in the real panel, in headless Chromium through the
// project's launcher: time to first render, the analysis cost the panel reports, and frame times while the
// events table scrolls. Saves a screenshot to artifacts/panel-dev/synthetic-100k.png.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from '../../e2e/launcher';
import { buildHarness } from '../../src/panel/dev/build';
import { serveStatic } from './serve';
import { runScript } from './run-script';

/** A frame time for the report; the page returns undefined for a percentile of too few frames. */
const ms = (value: number | undefined, digits = 1) => `${value?.toFixed(digits)} ms`;

async function main(): Promise<void> {
  const out = join(process.cwd(), 'artifacts/panel-dev');
  mkdirSync(out, { recursive: true });
  const server = await serveStatic(await buildHarness());
  const browser = await launchChromium({ headless: true });
  try {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1400, height: 820 });
    const begun = Date.now();
    await page.goto(`${server.origin}/dev/harness.html?fixture=synthetic-100k&theme=light`);
    await page.waitForSelector('[data-testid=event-row]', { timeout: 120_000 });
    process.stdout.write(
      `first render with 100k events: ${Date.now() - begun} ms (load, parse, fold, analyse, render)\n`,
    );
    process.stdout.write(`status: ${await page.locator('.status-bar').innerText()}\n`);
    process.stdout.write(`event rows in the DOM: ${await page.locator('[data-testid=event-row]').count()}\n`);
    const frames = await page.evaluate(async () => {
      const body = document.querySelector('.grid-body') as HTMLElement;
      const times: number[] = [];
      let last = performance.now();
      for (let i = 0; i < 120; i++) {
        body.scrollTop += 1500;
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        times.push(now - last);
        last = now;
      }
      const slowest = times.indexOf(Math.max(...times));
      times.sort((a, b) => a - b);
      return {
        median: times[60],
        p95: times[114],
        max: times[119],
        slowest,
        rows: document.querySelectorAll('[data-testid=event-row]').length,
      };
    });
    const scrolled = `median ${ms(frames.median)}, p95 ${ms(frames.p95)}, max ${ms(frames.max)} (frame ${frames.slowest})`;
    process.stdout.write(`scrolling 120 frames x 1500 px: ${scrolled}; rows in DOM ${frames.rows}\n`);
    await page.screenshot({ path: join(out, 'synthetic-100k.png') });
    const filterBegun = Date.now();
    await page.locator('.tb-filter').fill('progress 99999');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=event-row]').length === 1, undefined, {
      timeout: 30_000,
    });
    process.stdout.write(`filter to 1 of 100k rows: ${Date.now() - filterBegun} ms\n`);

    // Streaming: the same capture arriving as live deltas; how long the main thread is blocked at worst.
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(`${server.origin}/dev/harness.html?fixture=synthetic-100k&theme=light&live=1`);
    const gaps = await page.evaluate(async () => {
      const gaps: number[] = [];
      let last = performance.now();
      while (document.body.dataset.streamed !== 'done') {
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        gaps.push(now - last);
        last = now;
      }
      const end = performance.now() + 8000;
      while (performance.now() < end) {
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        gaps.push(now - last);
        last = now;
      }
      gaps.sort((a, b) => a - b);
      return {
        frames: gaps.length,
        median: gaps[Math.floor(gaps.length / 2)],
        p95: gaps[Math.floor(gaps.length * 0.95)],
        max: gaps[gaps.length - 1],
      };
    });
    const streamed = `median ${ms(gaps.median)}, p95 ${ms(gaps.p95)}, worst ${ms(gaps.max, 0)}`;
    process.stdout.write(`streaming 100k events live: ${gaps.frames} frames, ${streamed}\n`);
    process.stdout.write(`after streaming: ${await page.locator('.status-bar').innerText()}\n`);
    process.stdout.write(`page errors: ${errors.length === 0 ? 'none' : errors.join(' | ')}\n`);
  } finally {
    await browser.close();
    await server.close();
  }
}

runScript(main);
