// Node (Playwright): the lab's real recordings of the silence rules imported into the panel in Chromium with the
// built extension, as a user imports a file: idle-timeout-cut, buffered-stream and request-hang each show with the
// numbers measured on the wire, and the fixed setups show none of them (cases: fixtures/silence-recordings.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DIST_CHROME, panelUrl } from './fixtures/extension';
import { importSilenceTests } from './fixtures/silence-recordings';
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

importSilenceTests(
  'chromium',
  async () => {
    const page = await session.context.newPage();
    await page.setViewportSize({ width: 1400, height: 860 });
    await page.goto(panelUrl(`chrome-extension://${session.extensionId}/`, -1));
    return {
      importing: { panel: page, importFile: (path) => page.locator('[data-testid=import-input]').setInputFiles(path) },
      click: (selector) => page.locator(selector).click(),
      screenshot: async (path) => void (await page.screenshot({ path })),
      close: () => page.close(),
    };
  },
  () => dir,
);
