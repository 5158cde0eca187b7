// Node (Playwright runner, puppeteer-core over WebDriver BiDi): the 2026-07-28 (stateless) era live in Firefox ESR
// with the built extension, the same cases as v2-chromium: clean traffic quiet and labelled stateless, the cut
// request not re-issued found, the re-issued one linked to the request it lost.
import { expect, test } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import { DIST_FIREFOX, findTabId, panelUrl } from './fixtures/extension';
import { openMozExtensionPage } from './fixtures/firefox';
import { panelCaughtUp, readPanelProgress } from './fixtures/panel-view';
import { buildPageDir, labFor, V2_CASES } from './fixtures/v2-cases';
import type { V2PageApi } from './lab/v2/page/main';
import { type FirefoxSession, launchFirefox } from './launcher';

let firefox: FirefoxSession;
let page: { dir: string; remove(): void };

test.beforeAll(async () => {
  page = await buildPageDir();
  firefox = await launchFirefox({ extension: DIST_FIREFOX });
});

test.afterAll(async () => {
  const report = await firefox?.close();
  page?.remove();
  expect(report?.violations ?? []).toEqual([]);
});

async function openPanelFor(url: string): Promise<Page> {
  const panel = await firefox.browser.newPage();
  await openMozExtensionPage(panel, panelUrl(firefox.extensionBase!, -1));
  await openMozExtensionPage(panel, panelUrl(firefox.extensionBase!, await findTabId(panel, url)));
  return panel;
}

for (const c of V2_CASES) {
  test(`${c.name}: ${c.must.join(', ') || 'no error or warning'}${c.link ? `, a ${c.link} link` : ''}`, async () => {
    const { lab, pageUrl } = await labFor(c, page.dir);
    try {
      const tab = await firefox.browser.newPage();
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
      const count = (selector: string) => panel.evaluate((s) => document.querySelectorAll(s).length, selector);
      await expect.poll(() => count('[data-testid=session-stateless]')).toBe(1);
      if (c.link) await expect.poll(() => count(`[data-testid=reconnect-link][data-link-kind=${c.link}]`)).toBe(1);
      await Promise.all([panel.close(), tab.close()]);
    } finally {
      await lab.close();
    }
  });
}
