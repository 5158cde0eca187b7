// Node (Playwright runner, puppeteer-core over WebDriver BiDi): the lab's real recordings of the silence rules
// imported into the panel page in Firefox ESR with the built extension: idle-timeout-cut, buffered-stream and
// request-hang each show with the numbers measured on the wire, and the fixed setups show none of them (cases:
// fixtures/silence-recordings.ts, as in Chromium).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import type { ElementHandle } from 'puppeteer-core';
import { evaluating } from './fixtures/break-lab-firefox';
import { DIST_FIREFOX, panelUrl } from './fixtures/extension';
import { openMozExtensionPage, sizeViewport } from './fixtures/firefox';
import { importSilenceTests } from './fixtures/silence-recordings';
import { type FirefoxSession, launchFirefox } from './launcher';

let firefox: FirefoxSession;
let dir: string;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-import-silence-'));
  firefox = await launchFirefox({ extension: DIST_FIREFOX });
});

test.afterAll(async () => {
  const report = await firefox?.close();
  rmSync(dir, { recursive: true, force: true });
  expect(report?.violations ?? []).toEqual([]);
});

importSilenceTests(
  'firefox',
  async () => {
    const base = firefox.extensionBase;
    if (!base) throw new Error('Firefox has no extension installed');
    const page = await firefox.browser.newPage();
    await openMozExtensionPage(page, panelUrl(base, -1));
    await sizeViewport(page, 1400, 860);
    const importFile = async (path: string): Promise<void> => {
      const input = (await page.$('[data-testid=import-input]')) as ElementHandle<HTMLInputElement>;
      await input.uploadFile(resolve(path));
    };
    return {
      importing: { panel: evaluating(page), importFile },
      click: (selector) => page.click(selector),
      screenshot: async (path) => void (await page.screenshot({ path })),
      close: () => page.close(),
    };
  },
  () => dir,
);
