// Node (Playwright runner, puppeteer-core over WebDriver BiDi): a subset of the fault lab in Firefox ESR with the
// built extension: the cut mid-event, the epoch restart and the clean control; the panel page shows the expected
// findings and the CLI on its exported capture reports the same rules.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import type { BrowserContext, Page } from 'puppeteer-core';
import type { LabPageApi } from './lab/client/main';
import { findScenario, type Scenario } from './lab/scenarios';
import { type Lab, startLab } from './lab/start-lab';
import { DIST_FIREFOX, findTabId, panelUrl } from './fixtures/extension';
import { openMozExtensionPage } from './fixtures/firefox';
import { type FirefoxSession, launchFirefox } from './launcher';

const SUBSET = ['clean', 'cut-mid-event', 'epoch-restart-clamp'] as const;
/** What the panel shows has not changed for this long: the findings are final. */
const SETTLED_MS = 500;

let lab: Lab;
let firefox: FirefoxSession;
/** A user context whose downloads land in `downloads` (the default profile would ask or use ~/Downloads). */
let context: BrowserContext;
let pageDir: string;
let downloads: string;
/** Exported captures (not test-results/: other runs may clean it while this one reads). */
let exportsDir: string;

test.beforeAll(async () => {
  // A page build of our own: another spec may be building the lab page at the same moment.
  pageDir = mkdtempSync(join(tmpdir(), 'mcp-lab-page-'));
  lab = await startLab({ build: 'always', pageDir });
  firefox = await launchFirefox({ extension: DIST_FIREFOX });
  exportsDir = mkdtempSync(join(tmpdir(), 'mcp-lab-exports-'));
  downloads = mkdtempSync(join(tmpdir(), 'mcp-lab-downloads-'));
  context = await firefox.browser.createBrowserContext({
    downloadBehavior: { policy: 'allow', downloadPath: downloads },
  });
});

test.afterAll(async () => {
  const report = await firefox?.close();
  await lab?.close();
  rmSync(pageDir, { recursive: true, force: true });
  rmSync(downloads, { recursive: true, force: true });
  rmSync(exportsDir, { recursive: true, force: true });
  expect(report?.violations ?? []).toEqual([]);
});

test.afterEach(async () => {
  await lab.setScenario('clean');
});

/** The panel page attached to the tab showing `url` (tabId -1 first: attached to nothing, a place to ask). */
async function openPanelFor(url: string): Promise<Page> {
  const panel = await context.newPage();
  await openMozExtensionPage(panel, panelUrl(firefox.extensionBase!, -1));
  await openMozExtensionPage(panel, panelUrl(firefox.extensionBase!, await findTabId(panel, url)));
  await panel.setViewport({ width: 1280, height: 800 });
  return panel;
}

interface PanelState {
  sessions: number;
  events: number;
  findings: { rule: string; severity: string }[];
}

const panelState = (panel: Page): Promise<PanelState> =>
  panel.evaluate(() => ({
    sessions: document.querySelectorAll('[data-testid=session-row]').length,
    events: document.querySelectorAll('[data-testid=event-row]').length,
    findings: [...document.querySelectorAll('[data-testid=finding]')].map((el) => ({
      rule: el.getAttribute('data-rule') ?? '',
      severity: el.getAttribute('data-severity') ?? '',
    })),
  }));

/** Waits until sessions, events and findings in the panel stop changing; returns the last state. */
async function settled(panel: Page): Promise<PanelState> {
  let last = '';
  let since = Date.now();
  let state: PanelState = { sessions: 0, events: 0, findings: [] };
  await expect
    .poll(
      async () => {
        state = await panelState(panel);
        const signature = JSON.stringify(state);
        if (signature !== last) [last, since] = [signature, Date.now()];
        return state.sessions > 0 && Date.now() - since >= SETTLED_MS;
      },
      { message: 'the panel shows a session and stops changing', intervals: [100], timeout: 15_000 },
    )
    .toBe(true);
  return state;
}

/** Clicks the panel's export-capture button; resolves to the downloaded file once Firefox has finished writing it. */
async function exportCapture(panel: Page): Promise<string> {
  for (const file of readdirSync(downloads)) rmSync(join(downloads, file));
  await panel.click('[data-testid=export-capture]');
  let done = '';
  await expect
    .poll(
      () => {
        const files = readdirSync(downloads);
        done = files.find((file) => file.endsWith('.json')) ?? '';
        return done !== '' && !files.some((file) => file.endsWith('.part'));
      },
      { message: 'the capture download completes', timeout: 10_000 },
    )
    .toBe(true);
  return join(downloads, done);
}

/** Rule ids the CLI reports for a file (run from source: no build of dist/node races the Chromium spec's). */
async function cliRules(file: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    'npx',
    ['tsx', 'src/cli/main.ts', 'analyze', file, '--json', '--fail-on', 'never'],
    { maxBuffer: 64 << 20 },
  );
  return [...new Set((JSON.parse(stdout) as { findings: { rule: string }[] }).findings.map((f) => f.rule))].sort();
}

for (const name of SUBSET) {
  const scenario = findScenario(name) as Scenario;
  const must = scenario.expected.must.length ? scenario.expected.must.join(', ') : 'no error or warning';
  test(`Firefox, ${name}: the panel shows ${must}; the CLI on the exported capture agrees`, async () => {
    const pageUrl = `${lab.url}/?scenario=${name}`;
    const page = await context.newPage();
    await page.goto(pageUrl);
    const panel = await openPanelFor(pageUrl);

    const result = await page.evaluate((n) => (window as unknown as { __lab: LabPageApi }).__lab.run(n), name);
    expect(result.verdict, result.detail).toBe(scenario.sdkClientVerdict);

    const state = await settled(panel);
    const rules = [...new Set(state.findings.map((f) => f.rule))].sort();
    expect(state.events).toBeGreaterThan(0);
    for (const rule of scenario.expected.must) expect(rules, `${rule} is reported`).toContain(rule);
    for (const rule of scenario.expected.mustNot) expect(rules, `${rule} must not be reported`).not.toContain(rule);
    if (scenario.expected.must.length === 0) {
      expect(state.findings.filter((f) => f.severity === 'error' || f.severity === 'warning')).toEqual([]);
    }

    const file = join(exportsDir, `${name}.capture.json`);
    copyFileSync(await exportCapture(panel), file);
    expect(await cliRules(file)).toEqual(rules);
    await panel.close();
    await page.close();
  });
}
