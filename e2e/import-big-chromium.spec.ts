// Node (Playwright): big files imported into the real panel in Chromium with the built extension. The analysis
// worker reads a file slice by slice: the panel says how far it is, a Cancel stops it and keeps what was shown, and
// a whole import ends with the file's every session.
import { expect, test } from '@playwright/test';
import { writeBigHar } from './fixtures/big-har';
import { DIST_CHROME, panelUrl } from './fixtures/extension';
import { type ChromiumSession, launchChromium } from './launcher';

let session: ChromiumSession;

test.beforeAll(async () => {
  session = await launchChromium({ extension: DIST_CHROME });
});

test.afterAll(async () => {
  const report = await session?.close();
  expect(report?.violations ?? []).toEqual([]);
});

test('a 150 MB HAR: progress shown and rising, Cancel keeps the file shown before; a 22 MB one imports whole', async () => {
  test.setTimeout(180_000);
  const huge = writeBigHar(1800, 'huge.har', 'chromium');
  const big = writeBigHar(260, 'big.har', 'chromium');
  expect(huge.bytes).toBeGreaterThan(150e6);
  const panel = await session.context.newPage();
  await panel.setViewportSize({ width: 1400, height: 860 });
  await panel.goto(panelUrl(`chrome-extension://${session.extensionId}/`, -1));
  const input = panel.locator('[data-testid=import-input]');
  const notice = panel.locator('.notice[role=status]').first();

  // A small file first: what a cancelled import must leave on screen.
  await input.setInputFiles('fixtures/clean/capture.har');
  await expect(notice).toHaveText(/Viewing capture\.har: 7 connections\./);
  await expect(panel.locator('[data-testid=session-row]')).toHaveCount(1);

  await input.setInputFiles(huge.path);
  const progress = panel.locator('[data-testid=import-progress]');
  await expect(progress).toContainText('Importing huge.har');
  const bar = progress.locator('progress');
  await expect.poll(async () => Number(await bar.getAttribute('value')), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  const first = Number(await bar.getAttribute('value'));
  await expect.poll(async () => Number(await bar.getAttribute('value')), { timeout: 60_000 }).toBeGreaterThan(first);
  await panel.screenshot({ path: 'test-results/panel-import-progress-chromium.png' });
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel.getByText('Import of huge.har cancelled: nothing changed.')).toBeVisible();
  await expect(progress).toHaveCount(0);
  await expect(panel.locator('[data-testid=session-row]')).toHaveCount(1);
  await expect(panel.locator('[data-testid=status-bar]')).toHaveAttribute('data-analysis', 'current');

  // A whole import: every copy's session, the progress gone once it is in.
  await input.setInputFiles(big.path);
  await expect(panel.getByText(`Viewing big.har: ${big.connections} connections.`)).toBeVisible({ timeout: 60_000 });
  await expect(progress).toHaveCount(0);
  await expect(panel.locator('[data-testid=status-bar]')).toHaveAttribute('data-analysis', 'current', {
    timeout: 60_000,
  });
  await expect(panel.locator('[data-testid=session-row]')).toHaveCount(260);
  await panel.screenshot({ path: 'test-results/panel-import-big-chromium.png' });
  await panel.close();
});
