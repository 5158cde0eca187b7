// Node (Playwright runner, puppeteer-core over WebDriver BiDi): the panel inside Firefox ESR's real DevTools toolbox, headless.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { LabPageApi } from './lab/client/main';
import { findScenario } from './lab/scenarios';
import { type Lab, startLab } from './lab/start-lab';
import { DIST_FIREFOX } from './fixtures/extension';
import type { PanelView } from './fixtures/panel-view';
import { openFirefoxToolbox, toolboxUndrivable } from './fixtures/toolbox-firefox';
import { type FirefoxSession, launchFirefox } from './launcher';

const SCENARIO = 'cut-mid-event';
const RULE = 'torn-event-reconnect';

let lab: Lab;
let firefox: FirefoxSession;
let pageDir: string;

test.beforeAll(async () => {
  // A page build of our own: another spec may be building the lab page at the same moment.
  pageDir = mkdtempSync(join(tmpdir(), 'mcp-lab-page-'));
  [lab, firefox] = await Promise.all([
    startLab({ build: 'always', pageDir }),
    launchFirefox({ extension: DIST_FIREFOX }),
  ]);
});

test.afterAll(async () => {
  const report = await firefox?.close();
  await lab?.close();
  rmSync(pageDir, { recursive: true, force: true });
  expect(report?.violations ?? []).toEqual([]);
});

test(`Firefox toolbox: the "MCP Streams" panel shows the session and ${RULE} of ${SCENARIO}`, async () => {
  const undrivable = await toolboxUndrivable(firefox.browser);
  test.skip(undrivable !== undefined, undrivable);
  const scenario = findScenario(SCENARIO);
  if (!scenario) throw new Error(`no scenario ${SCENARIO}`);
  const pageUrl = `${lab.url}/?scenario=${SCENARIO}`;
  const page = await firefox.browser.newPage();
  // No emulated viewport: the page fills the window, the toolbox docks below it, as for a user.
  // Firefox ESR 140 refuses the screen orientation puppeteer-core sends along (sizeViewport says more): let it go.
  await page.setViewport(null).catch((error: unknown) => {
    if (!String(error).includes('unknown command emulation.setScreenOrientationOverride')) throw error;
  });
  await page.goto(pageUrl);

  // Docked at Firefox's default height (250 px for the whole toolbox), as a user first sees it.
  const toolbox = await openFirefoxToolbox(firefox.browser, pageUrl, 'MCP Streams');
  // The blank-panel bug: relative paths resolved against the devtools page (src/panel/src/panel/panel.html).
  expect(toolbox.panelUrl).toBe(`${firefox.extensionBase}src/panel/panel.html`);
  expect(await toolbox.tab()).toEqual({
    label: 'MCP Streams',
    selected: true,
    iconSrc: `${firefox.extensionBase}icons/icon-32.png`,
    iconLoaded: true,
  });
  let view: PanelView = await toolbox.read();
  await expect
    .poll(async () => (view = await toolbox.read()).readyState, { message: 'the panel document in the toolbox loads' })
    .toBe('complete');
  expect(view).toMatchObject({ url: toolbox.panelUrl, emptyState: true, sessions: [], findings: [] });

  const result = await page.evaluate((name) => (window as unknown as { __lab: LabPageApi }).__lab.run(name), SCENARIO);
  expect(result.verdict, result.detail).toBe(scenario.clientVerdict);

  // The finding appears once the panel has the resumed stream: wait for it, not for time.
  await expect
    .poll(async () => (view = await toolbox.read()).findings.map((f) => f.rule), {
      message: `the panel in the toolbox lists ${RULE}`,
    })
    .toContain(RULE);
  // The picture first: when a check below fails, it shows what the user saw.
  mkdirSync('test-results', { recursive: true });
  await toolbox.screenshot('test-results/toolbox-firefox.png');
  expect(view.emptyState).toBe(false);
  expect(view.sessions).toHaveLength(1);
  expect(view.sessions[0]).toMatchObject({ visible: true, text: expect.stringContaining('2025-11-25') });
  expect(view.sessions[0]!.text).toContain(view.sessions[0]!.id.slice(0, 4));
  expect(view.events).toBeGreaterThan(0);
  expect(view.findings.find((f) => f.rule === RULE)).toMatchObject({
    visible: true,
    text: expect.stringContaining(RULE),
  });
  for (const rule of scenario.expected.mustNot) expect(view.findings.map((f) => f.rule)).not.toContain(rule);

  // Dragged shorter still, to about 200 px of panel: the lanes fold, the session and the finding stay on screen.
  const panelHeight = await toolbox.resize(230);
  expect(panelHeight).toBeLessThanOrEqual(205);
  await expect
    .poll(
      async () => {
        view = await toolbox.read();
        return { session: view.sessions[0]?.visible, finding: view.findings.find((f) => f.rule === RULE)?.visible };
      },
      { message: `at ${panelHeight} px the session and ${RULE} are on screen` },
    )
    .toEqual({ session: true, finding: true });
  await toolbox.screenshot('test-results/toolbox-firefox-short.png');

  // A reload keeps the panel in the toolbox: it starts over on the new document and shows the next run's finding.
  await page.reload();
  await expect
    .poll(async () => (view = await toolbox.read()).emptyState, { message: 'after the reload the panel starts over' })
    .toBe(true);
  expect(view.url).toBe(toolbox.panelUrl);
  const again = await page.evaluate((name) => (window as unknown as { __lab: LabPageApi }).__lab.run(name), SCENARIO);
  expect(again.verdict, again.detail).toBe(scenario.clientVerdict);
  await expect
    .poll(async () => (view = await toolbox.read()).findings.map((f) => f.rule), {
      message: `after the reload the panel in the toolbox lists ${RULE} again`,
    })
    .toContain(RULE);
  expect(view.sessions).toHaveLength(1);
  await page.close();
});
