// Node (Playwright): the panel inside Chromium's real DevTools window (headless, --auto-open-devtools-for-tabs), not a tab.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { LabPageApi } from './lab/client/main';
import { findScenario } from './lab/scenarios';
import { type Lab, startLab } from './lab/start-lab';
import { DIST_CHROME } from './fixtures/extension';
import type { PanelView } from './fixtures/panel-view';
import { type ChromiumToolbox, openChromiumToolbox } from './fixtures/toolbox-chromium';
import { type ChromiumSession, launchChromium } from './launcher';

const SCENARIO = 'cut-mid-event';
const RULE = 'torn-event-reconnect';

let lab: Lab;
let session: ChromiumSession;
let pageDir: string;
let toolbox: ChromiumToolbox | undefined;

test.beforeAll(async () => {
  // A page build of our own: another spec may be building the lab page at the same moment.
  pageDir = mkdtempSync(join(tmpdir(), 'mcp-lab-page-'));
  [lab, session] = await Promise.all([
    startLab({ build: 'always', pageDir }),
    launchChromium({ extension: DIST_CHROME, devtools: true }),
  ]);
});

test.afterAll(async () => {
  await toolbox?.detach();
  const report = await session?.close();
  await lab?.close();
  rmSync(pageDir, { recursive: true, force: true });
  expect(report?.violations ?? []).toEqual([]);
});

test(`Chromium DevTools: the "MCP Streams" panel shows the session and ${RULE} of ${SCENARIO}`, async () => {
  const scenario = findScenario(SCENARIO);
  if (!scenario) throw new Error(`no scenario ${SCENARIO}`);
  const pageUrl = `${lab.url}/?scenario=${SCENARIO}`;
  const page = session.context.pages()[0] ?? (await session.context.newPage());
  await page.goto(pageUrl);

  toolbox = await openChromiumToolbox(session, pageUrl, 'MCP Streams');
  // Root-relative paths from the devtools page resolve from the extension root in Chromium too.
  expect(toolbox.panelUrl).toBe(`chrome-extension://${session.extensionId}/src/panel/panel.html`);
  // No icon check here: Chromium's DevTools draws no icon on extension tabs (its createPanel request carries none).
  expect(await toolbox.tabs()).toMatchObject({
    selected: 'MCP Streams',
    titles: expect.arrayContaining(['Elements', 'MCP Streams']),
  });
  const before = await toolbox.read();
  expect(before).toMatchObject({ readyState: 'complete', emptyState: true, sessions: [], findings: [] });

  const result = await page.evaluate((name) => (window as unknown as { __lab: LabPageApi }).__lab.run(name), SCENARIO);
  expect(result.verdict, result.detail).toBe(scenario.clientVerdict);

  // The finding appears once the panel has the resumed stream: wait for it, not for time.
  let view: PanelView = before;
  await expect
    .poll(async () => (view = await toolbox!.read()).findings.map((f) => f.rule), {
      message: `the panel in DevTools lists ${RULE}`,
    })
    .toContain(RULE);
  expect(view.emptyState).toBe(false);
  expect(view.sessions).toHaveLength(1);
  expect(view.sessions[0]).toMatchObject({ visible: true, text: expect.stringContaining('2025-11-25') });
  expect(view.sessions[0]!.text).toContain(view.sessions[0]!.id.slice(0, 4));
  expect(view.events).toBeGreaterThan(0);
  const finding = view.findings.find((f) => f.rule === RULE)!;
  expect(finding).toMatchObject({ visible: true, text: expect.stringContaining(RULE) });
  for (const rule of scenario.expected.mustNot) expect(view.findings.map((f) => f.rule)).not.toContain(rule);

  mkdirSync('test-results', { recursive: true });
  await toolbox.screenshot('test-results/toolbox-chromium.png');

  // Record on only 127.0.0.1, then the tab goes to the same lab under localhost: no bridge there says so, DevTools
  // does, and the panel names the page it does not record.
  await toolbox.evaluate(
    `chrome.storage.local.set({ 'settings.recordOn': 'picked-sites', 'settings.pickedSites': ['http://127.0.0.1'] })`,
  );
  const notice = '[data-testid=notice-site-not-recorded][data-site="http://localhost"]';
  expect(await toolbox.count(notice)).toBe(0);
  await page.goto(pageUrl.replace('//127.0.0.1:', '//localhost:'));
  await expect.poll(() => toolbox!.count(notice), { message: 'the panel names the unrecorded localhost page' }).toBe(1);
  await toolbox.screenshot('test-results/toolbox-chromium-not-picked.png');
});
