// Dev script (Node): the panel inside the real extension, attached to a live tab. Builds the Chrome extension to a
// private directory, starts the e2e fixture server (a page that streams SSE, is cut mid-event and resumes), opens
// the panel as an extension page `panel.html?tabId=N`, stops the service worker mid-session to check the panel
// re-attaches, and saves screenshots to artifacts/panel-dev/live-*.png. Browsers go through e2e/launcher.ts.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from '../../e2e/launcher';
import { findTabId, openExtensionPage, panelUrl } from '../../e2e/fixtures/extension';
import { startFixtureServer } from '../../e2e/fixtures/sse-server';
import { runScript } from './run-script';

const dist = '/tmp/mcp-stream-inspector-panel-dev-chrome';

async function main(): Promise<void> {
  const out = join(process.cwd(), 'artifacts/panel-dev');
  mkdirSync(out, { recursive: true });
  execFileSync('npx', ['vite', 'build', '--outDir', dist], {
    env: { ...process.env, TARGET: 'chrome' },
    stdio: 'ignore',
  });
  const server = await startFixtureServer();
  const browser = await launchChromium({ headless: true, extension: dist });
  try {
    const app = await browser.context.newPage();
    const appUrl = `${server.url}/mcp-client.html`;
    await app.goto(appUrl);
    const probe = await openExtensionPage(browser.context, browser.extensionId as string);
    const tabId = await findTabId(probe, appUrl);
    const panel = await browser.context.newPage();
    await panel.setViewportSize({ width: 1400, height: 820 });
    await panel.goto(panelUrl(`chrome-extension://${browser.extensionId}/`, tabId));
    await panel.waitForSelector('[data-testid=reconnect-link]', { timeout: 20_000 });
    await panel.waitForSelector('[data-testid=finding][data-rule=torn-event-reconnect]', { timeout: 20_000 });
    const sessions = await panel.locator('[data-testid=session-row]').count();
    process.stdout.write(`sessions: ${sessions}, events: ${await panel.locator('[data-testid=event-row]').count()}\n`);
    const cursor = await panel.locator('[data-testid=reconnect-link]').first().getAttribute('data-last-event-id');
    process.stdout.write(`link: Last-Event-ID ${cursor}\n`);
    for (const theme of ['light', 'dark'] as const) {
      await panel.emulateMedia({ colorScheme: theme });
      await panel.locator('[data-testid=finding]').first().click();
      await panel.waitForTimeout(200);
      await panel.screenshot({ path: join(out, `live-${theme}.png`) });
    }
    // Stop the service worker: the panel must reconnect, re-attach and show the same thing from the new snapshot.
    const cdp = await browser.context.browser()?.newBrowserCDPSession();
    if (cdp) {
      const { targetInfos } = (await cdp.send('Target.getTargets')) as {
        targetInfos: Array<{ targetId: string; type: string; url: string }>;
      };
      const worker = targetInfos.find(
        (t) => t.type === 'service_worker' && t.url.includes(browser.extensionId as string),
      );
      if (worker) {
        await cdp.send('Target.closeTarget', { targetId: worker.targetId });
        process.stdout.write('service worker stopped\n');
        await panel.waitForFunction(
          () => document.querySelector('.tb-status')?.textContent?.includes('Live'),
          undefined,
          { timeout: 20_000 },
        );
        const status = await panel.locator('.tb-status').innerText();
        const findings = await panel.locator('[data-testid=finding]').count();
        const events = await panel.locator('[data-testid=event-row]').count();
        process.stdout.write(`after restart: ${status}, findings ${findings}, events ${events}\n`);
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

runScript(main);
