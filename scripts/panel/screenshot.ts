// Dev script (Node): builds the harness, opens it in headless Chromium through the project's launcher (black-hole
// proxy), and saves screenshots of the panel in light and dark to artifacts/panel-dev/.
// Usage: npx tsx scripts/panel/screenshot.ts [fixture] [out-dir]   (narrow shots are DevTools docked at 600x500)
// A fixture argument with "=" is a harness query (e.g. synthetic=4mb): then the shots are of truncated payloads.
// `npm run panel:shots -- store` writes the store listing's screenshots (1280x800, lab recordings) to docs/store/.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { launchChromium } from '../../e2e/launcher';
import { buildHarness } from '../../src/panel/dev/build';
import { serveStatic } from './serve';
import { runScript } from './run-script';

const fixture = process.argv[2] ?? 'cut-mid-event';
const store = fixture === 'store';
const out = resolve(process.cwd(), process.argv[3] ?? (store ? 'docs/store' : 'artifacts/panel-dev'));

async function shoot(page: Page, url: string, name: string, act?: (page: Page) => Promise<void>): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('[data-testid=session-row], [data-testid=empty-state], .rule-page', { timeout: 60_000 });
  await act?.(page);
  await page.waitForTimeout(150);
  const file = join(out, `${name}.png`);
  await page.screenshot({ path: file });
  process.stdout.write(`${file}\n`);
}

async function main(): Promise<void> {
  mkdirSync(out, { recursive: true });
  const dir = await buildHarness();
  const server = await serveStatic(dir);
  const browser = await launchChromium({ headless: true });
  try {
    const page = await browser.context.newPage();
    if (store) {
      await storeShots(page, server.origin, dir);
      return;
    }
    await page.setViewportSize({ width: 1400, height: 820 });
    if (fixture.includes('=')) {
      await truncatedShots(page, `${server.origin}/dev/harness.html?${fixture}`, fixture.replace(/[^a-z0-9]+/gi, '-'));
      return;
    }
    const base = `${server.origin}/dev/harness.html?fixture=${fixture}`;
    for (const theme of ['light', 'dark'] as const) {
      await shoot(page, `${base}&theme=${theme}`, `${fixture}-${theme}`);
      await shoot(page, `${base}&theme=${theme}`, `${fixture}-${theme}-finding`, async (p) => {
        await p.locator('[data-testid=finding]').first().click();
      });
      await shoot(page, `${base}&theme=${theme}`, `${fixture}-${theme}-event`, async (p) => {
        await p.locator('[data-testid=event-row]').nth(5).click();
      });
      await shoot(page, `${base}&theme=${theme}`, `${fixture}-${theme}-raw`, async (p) => {
        await p.locator('[data-testid=event-row]').nth(9).click();
        await p.getByRole('tab', { name: 'Raw' }).click();
      });
    }
    for (const [w, h] of [
      [600, 500],
      [1280, 800],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      for (const theme of ['light', 'dark'] as const) {
        await shoot(page, `${base}&theme=${theme}`, `${fixture}-${w}x${h}-${theme}`);
        await shoot(page, `${base}&theme=${theme}`, `${fixture}-${w}x${h}-${theme}-finding`, async (p) => {
          await p.locator('[data-testid=finding]').first().click();
        });
      }
    }
    await page.setViewportSize({ width: 1400, height: 820 });
    await shoot(page, `${server.origin}/dev/harness.html?fixture=empty&theme=light`, 'empty-light');
    await shoot(page, `${server.origin}/panel.html?rule=torn-event-reconnect&theme=dark`, 'rule-page-dark');
  } finally {
    await browser.close();
    await server.close();
  }
}

/**
 * The store listing's screenshots: 1280x800 (the Chrome Web Store's size; AMO takes it too), each of a real lab
 * recording (fixtures/) imported as a capture file into the panel opened as a plain page (no extension), so the
 * timeline spans the recording (the harness shows a live tab, whose timeline runs on to now): the timeline and an
 * event with the findings, a finding opened with its doc page, and the import itself in the dark theme.
 */
async function storeShots(page: Page, origin: string, built: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  const imported = (name: string, act: (p: Page) => Promise<void>) => async (p: Page) => {
    // The capture file of a lab recording, as the panel's export writes it (build.ts made it from the HAR).
    await p.setInputFiles('[data-testid=import-input]', join(built, `dev/fixtures/${name}.json`));
    await p.waitForSelector('[data-testid=session-row]', { timeout: 60_000 });
    await act(p);
  };
  const panel = (theme: string) => `${origin}/panel.html?theme=${theme}`;
  await shoot(
    page,
    panel('light'),
    'timeline-findings',
    imported('resume-409', (p) => p.locator('[data-testid=event-row]').nth(3).click()),
  );
  await shoot(
    page,
    panel('light'),
    'finding-doc',
    imported('epoch-restart-fresh', async (p) => {
      await p.locator('[data-testid=finding]').first().click();
      await p.waitForSelector('[data-testid=rule-doc-link]');
    }),
  );
  await shoot(
    page,
    panel('dark'),
    'import-capture',
    imported('nginx-slow-call-cut', (p) => p.locator('[data-testid=finding]').first().click()),
  );
}

/** A capture of big events: the table's "truncated — show all", the detail's head of a payload, and all of it. */
async function truncatedShots(page: Page, base: string, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    const url = `${base}&theme=${theme}`;
    await shoot(page, url, `${name}-${theme}`, async (p) => {
      await p.waitForSelector('[data-testid=show-all]', { timeout: 60_000 });
    });
    await shoot(page, url, `${name}-${theme}-preview`, async (p) => {
      await p.locator('[data-testid=event-row]').nth(2).click();
      await p.waitForSelector('[data-testid=payload-truncated]');
    });
    await shoot(page, url, `${name}-${theme}-raw`, async (p) => {
      await p.locator('[data-testid=event-row]').nth(2).click();
      await p.getByRole('tab', { name: 'Raw' }).click();
      await p.waitForSelector('[data-testid=payload-truncated]');
    });
    await shoot(page, url, `${name}-${theme}-show-all`, async (p) => {
      await p.locator('[data-testid=show-all]').first().click();
      await p.getByRole('tab', { name: 'Raw' }).click();
      await p.locator('[data-testid=payload-show-all]').waitFor({ state: 'detached', timeout: 30_000 });
    });
  }
}

runScript(main);
