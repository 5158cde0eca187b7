// Node (Playwright): the 2026-07-28 (stateless) era live in Chromium with the built extension: the TS SDK v2 client
// in the lab page talks to the SDK v2 server; the panel labels the group stateless, is quiet on clean traffic, finds
// the cut request never re-issued, and links the re-issued one to the request it lost.
import { expect, test, type Page } from '@playwright/test';
import { DIST_CHROME, findTabId, panelUrl } from './fixtures/extension';
import { panelCaughtUp, readPanelProgress } from './fixtures/panel-view';
import { buildPageDir, labFor, V2_CASES } from './fixtures/v2-cases';
import type { V2PageApi } from './lab/v2/page/main';
import { type ChromiumSession, launchChromium } from './launcher';

let session: ChromiumSession;
let page: { dir: string; remove(): void };

test.beforeAll(async () => {
  page = await buildPageDir();
  session = await launchChromium({ extension: DIST_CHROME });
});

test.afterAll(async () => {
  const report = await session?.close();
  page?.remove();
  expect(report?.violations ?? []).toEqual([]);
});

async function openPanelFor(url: string): Promise<Page> {
  const panel = await session.context.newPage();
  const base = `chrome-extension://${session.extensionId}/`;
  await panel.goto(panelUrl(base, -1));
  await panel.goto(panelUrl(base, await findTabId(panel, url)));
  return panel;
}

for (const c of V2_CASES) {
  test(`${c.name}: ${c.must.join(', ') || 'no error or warning'}${c.link ? `, a ${c.link} link` : ''}`, async () => {
    const { lab, pageUrl } = await labFor(c, page.dir);
    try {
      const tab = await session.context.newPage();
      await tab.goto(pageUrl);
      const panel = await openPanelFor(pageUrl);
      const result = await tab.evaluate((name) => (window as unknown as { __v2: V2PageApi }).__v2.run(name), c.name);
      expect(result.verdict, result.steps.join('\n')).toBe(c.verdict);
      const shown = await panelCaughtUp({
        panel: () => panel.evaluate(readPanelProgress),
        page: () => tab.evaluate(() => (window as unknown as { __v2: V2PageApi }).__v2.wire()),
      });
      const loud = shown.findings.filter((f) => f.severity === 'error' || f.severity === 'warning');
      expect([...new Set(loud.map((f) => f.rule))].sort()).toEqual(c.must);
      await expect(panel.locator('[data-testid=session-stateless]')).toHaveCount(1);
      if (c.link) await expect(panel.locator(`[data-testid=reconnect-link][data-link-kind=${c.link}]`)).toHaveCount(1);
      if (c.name === 'v2-cut-reissued') await panel.screenshot({ path: 'test-results/panel-v2-reissued.png' });
      await Promise.all([panel.close(), tab.close()]);
    } finally {
      await lab.close();
    }
  });
}
