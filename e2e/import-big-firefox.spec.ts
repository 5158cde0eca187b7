// Node (Playwright runner, puppeteer-core over WebDriver BiDi): big files imported into the real panel page in
// Firefox ESR with the built extension: the analysis worker reads the file slice by slice, the panel says how far it
// is, Cancel keeps what was shown, and a whole import ends with every session of the file.
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import type { ElementHandle, Page } from 'puppeteer-core';
import { writeBigHar } from './fixtures/big-har';
import { DIST_FIREFOX, panelUrl } from './fixtures/extension';
import { openMozExtensionPage, sizeViewport, waitInPage } from './fixtures/firefox';
import { launchFirefox, type FirefoxSession } from './launcher';

let firefox: FirefoxSession;

test.beforeAll(async () => {
  firefox = await launchFirefox({ extension: DIST_FIREFOX });
});

test.afterAll(async () => {
  const report = await firefox?.close();
  expect(report?.violations ?? []).toEqual([]);
});

const text = (page: Page, selector: string): Promise<string> =>
  page.evaluate((s) => document.querySelector(s)?.textContent ?? '', selector);
/** Waits until `selector` matches `n` elements (the panel renders a moment after its notice). */
async function waitForCount(page: Page, selector: string, n: number): Promise<void> {
  await waitInPage(page, (s: string, want: number) => document.querySelectorAll(s).length === want, selector, n);
}
const waitForText = (page: Page, want: string): Promise<void> =>
  waitInPage(page, (w: string) => document.body.textContent?.includes(w) === true, want);
const waitForProgressAbove = (page: Page, was: number): Promise<void> =>
  waitInPage(
    page,
    (w: number) => Number(document.querySelector('[data-testid=import-progress] progress')?.getAttribute('value')) > w,
    was,
  );
const progressValue = (page: Page): Promise<number> =>
  page.evaluate(() => Number(document.querySelector('[data-testid=import-progress] progress')?.getAttribute('value')));

async function importFile(page: Page, path: string): Promise<void> {
  const input = (await page.$('[data-testid=import-input]')) as ElementHandle<HTMLInputElement>;
  await input.uploadFile(resolve(path));
}

test('Firefox: a 152 MB HAR shows rising progress and cancels keeping what was shown; a 22 MB one imports whole', async () => {
  test.setTimeout(240_000);
  const huge = writeBigHar(1800, 'huge.har', 'firefox');
  const big = writeBigHar(260, 'big.har', 'firefox');
  const panel = await firefox.browser.newPage();
  await sizeViewport(panel, 1400, 860);
  await openMozExtensionPage(panel, panelUrl(firefox.extensionBase!, -1));

  await importFile(panel, 'fixtures/clean/capture.har');
  await waitForText(panel, 'Viewing capture.har: 7 connections.');
  await waitForCount(panel, '[data-testid=session-row]', 1);

  await importFile(panel, huge.path);
  await waitInPage(panel, (s: string) => document.querySelector(s) !== null, '[data-testid=import-progress]');
  expect(await text(panel, '[data-testid=import-progress]')).toContain('Importing huge.har');
  await waitForProgressAbove(panel, 0.5);
  const first = await progressValue(panel);
  await waitForProgressAbove(panel, first);
  await panel.screenshot({ path: 'test-results/panel-import-progress-firefox.png' });
  await panel.evaluate(() => {
    const buttons = document.querySelectorAll<HTMLButtonElement>('[data-testid=import-progress] button');
    [...buttons].find((b) => b.textContent === 'Cancel')?.click();
  });
  await waitForText(panel, 'Import of huge.har cancelled: nothing changed.');
  await waitForCount(panel, '[data-testid=import-progress]', 0);
  await waitForCount(panel, '[data-testid=session-row]', 1);

  await importFile(panel, big.path);
  await waitForText(panel, `Viewing big.har: ${big.connections} connections.`);
  await waitInPage(
    panel,
    (s: string) => document.querySelector(s)?.getAttribute('data-analysis') === 'current',
    '[data-testid=status-bar]',
  );
  await waitForCount(panel, '[data-testid=import-progress]', 0);
  await waitForCount(panel, '[data-testid=session-row]', 260);
  await panel.screenshot({ path: 'test-results/panel-import-big-firefox.png' });
  await panel.close();
});
