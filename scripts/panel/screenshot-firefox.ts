// Dev script (Node): the harness in headless Firefox ESR through the project's launcher, light and dark,
// wide and docked narrow (600x500), saved to artifacts/panel-dev/firefox-*.png.
// Usage: npx tsx scripts/panel/screenshot-firefox.ts [fixture] [out-dir]
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launchFirefox } from '../../e2e/launcher';
import { buildHarness } from '../../src/panel/dev/build';
import { serveStatic } from './serve';
import { runScript } from './run-script';

async function main(): Promise<void> {
  const fixture = process.argv[2] ?? 'cut-mid-event';
  const out = resolve(process.cwd(), process.argv[3] ?? 'artifacts/panel-dev');
  mkdirSync(out, { recursive: true });
  const server = await serveStatic(await buildHarness());
  const browser = await launchFirefox({ headless: true });
  try {
    const page = await browser.browser.newPage();
    for (const [width, height, theme] of [
      [1400, 820, 'light'],
      [1400, 820, 'dark'],
      [600, 500, 'dark'],
    ] as const) {
      await page.setViewport({ width, height });
      await page.goto(`${server.origin}/dev/harness.html?fixture=${fixture}&theme=${theme}`);
      await page.waitForSelector('[data-testid=finding]');
      await page.click('[data-testid=finding]');
      await new Promise((r) => setTimeout(r, 200));
      const file = join(out, `firefox-${fixture}-${width === 600 ? '600x500-' : ''}${theme}.png`);
      await page.screenshot({ path: file });
      process.stdout.write(`${file}\n`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

runScript(main);
