// Node (Playwright): the lab's real recordings of the silence rules imported into the panel in Chromium with the
// built extension, as a user imports a file: idle-timeout-cut, buffered-stream and request-hang each show with the
// numbers measured on the wire, and the fixed setups show none of them (cases: fixtures/silence-recordings.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { DIST_CHROME, panelUrl } from './fixtures/extension';
import {
  expectSilenceFinding,
  FIXED_RECORDINGS,
  importedFindings,
  type ImportingPanel,
  SILENCE_RECORDINGS,
} from './fixtures/silence-recordings';
import { type ChromiumSession, launchChromium } from './launcher';

let session: ChromiumSession;
let dir: string;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-import-silence-'));
  session = await launchChromium({ extension: DIST_CHROME });
});

test.afterAll(async () => {
  const report = await session?.close();
  rmSync(dir, { recursive: true, force: true });
  expect(report?.violations ?? []).toEqual([]);
});

async function freshPanel(): Promise<{ page: Page; importing: ImportingPanel }> {
  const page = await session.context.newPage();
  await page.setViewportSize({ width: 1400, height: 860 });
  await page.goto(panelUrl(`chrome-extension://${session.extensionId}/`, -1));
  return {
    page,
    importing: { panel: page, importFile: (path) => page.locator('[data-testid=import-input]').setInputFiles(path) },
  };
}

for (const recording of SILENCE_RECORDINGS) {
  test(`imported ${recording.name}: ${recording.rule} with the numbers measured on the wire`, async () => {
    const { page, importing } = await freshPanel();
    expectSilenceFinding(recording, await importedFindings(importing, dir, recording.name));
    if (recording.name === 'nginx-idle-get-cut') {
      await page.locator(`[data-testid=finding][data-rule="${recording.rule}"]`).click();
      await page.screenshot({ path: 'test-results/import-idle-timeout-cut-chromium.png' });
    }
    await page.close();
  });
}

test('imported fixed setups (keep-alives under the timeout, an untransformed stream): no finding', async () => {
  for (const name of FIXED_RECORDINGS) {
    const { page, importing } = await freshPanel();
    expect(await importedFindings(importing, dir, name), name).toEqual([]);
    await page.close();
  }
});
