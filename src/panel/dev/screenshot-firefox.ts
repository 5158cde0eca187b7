// Dev script (Node): the harness in headless Firefox ESR through the project's launcher, light and dark,
// saved to artifacts/panel-dev/firefox-*.png. Usage: npx tsx src/panel/dev/screenshot-firefox.ts [fixture]
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchFirefox } from '../../../e2e/launcher';
import { buildHarness } from './build';
import { serveStatic } from './serve';

async function main(): Promise<void> {
  const fixture = process.argv[2] ?? 'torn-replay-boundary-sdk-inmemory';
  const out = join(process.cwd(), 'artifacts/panel-dev');
  mkdirSync(out, { recursive: true });
  const server = await serveStatic(await buildHarness());
  const browser = await launchFirefox({ headless: true });
  try {
    const page = await browser.browser.newPage();
    await page.setViewport({ width: 1400, height: 820 });
    for (const theme of ['light', 'dark'] as const) {
      await page.goto(`${server.origin}/dev/harness.html?fixture=${fixture}&theme=${theme}`);
      await page.waitForSelector('[data-testid=finding]');
      await page.click('[data-testid=finding]');
      await new Promise((r) => setTimeout(r, 200));
      const file = join(out, `firefox-${fixture}-${theme}.png`);
      await page.screenshot({ path: file as `${string}.png` });
      process.stdout.write(`${file}\n`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
