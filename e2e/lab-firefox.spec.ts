// Node (Playwright runner, puppeteer-core over WebDriver BiDi): a subset of the fault lab in Firefox ESR with the
// built extension: the cut mid-event, the epoch restart and the clean control; the panel page shows the expected
// findings and the CLI on its exported capture reports the same rules.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import type { BrowserContext, Page } from 'puppeteer-core';
import type { LabPageApi } from './lab/client/main';
import { findScenario, type Scenario } from './lab/scenarios';
import { type Lab, startLab } from './lab/start-lab';
import { DIST_FIREFOX, findTabId, panelUrl } from './fixtures/extension';
import { openMozExtensionPage, sizeViewport } from './fixtures/firefox';
import { cutShortfall, silentResume } from './fixtures/lab-fault';
import { panelCaughtUp, type PanelProgress, readPanelProgress } from './fixtures/panel-view';
import { type FirefoxSession, launchFirefox } from './launcher';

const SUBSET = ['clean', 'cut-mid-event', 'epoch-restart-clamp'] as const;

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
  exportsDir = mkdtempSync(join(tmpdir(), 'mcp-lab-exports-'));
  downloads = mkdtempSync(join(tmpdir(), 'mcp-lab-downloads-'));
  firefox = await launchFirefox({ extension: DIST_FIREFOX, downloadDir: downloads });
  context = await firefox.browser.createBrowserContext();
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
  await sizeViewport(panel, 1280, 800);
  return panel;
}

/** What the panel shows once it holds all the page's fetch saw and has analysed it (see panelCaughtUp). */
const caughtUp = (panel: Page, page: Page): Promise<PanelProgress> =>
  panelCaughtUp({
    panel: () => panel.evaluate(readPanelProgress),
    page: () => page.evaluate(() => (window as unknown as { __lab: LabPageApi }).__lab.wire()),
  });

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
        // Firefox makes an empty placeholder of the file before its .part: done once the whole JSON is in place.
        return (
          done !== '' &&
          !files.some((file) => file.endsWith('.part')) &&
          readFileSync(join(downloads, done), 'utf8').trimEnd().endsWith('}')
        );
      },
      { message: 'the capture download completes' },
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

interface Run {
  state: PanelProgress;
  rules: string[];
  file: string;
  /** Why the lab's fault did not land (the hazard never reached the page), or "" when it did. */
  notLanded: string;
}

/**
 * One run of the scenario in a fresh page and panel, up to the exported capture; `guard` puts the page's client
 * behind the client guard (it must then end `ok`).
 */
async function runScenario(name: Scenario['name'], scenario: Scenario, guard = false): Promise<Run> {
  const pageUrl = `${lab.url}/?scenario=${name}`;
  const page = await context.newPage();
  await page.goto(pageUrl);
  const panel = await openPanelFor(pageUrl);

  const result = await page.evaluate(
    (n, g) => (window as unknown as { __lab: LabPageApi }).__lab.run(n, { guard: g }),
    name,
    guard,
  );
  expect(result.verdict, result.detail).toBe(guard ? 'ok' : scenario.clientVerdict);
  expect(result.guard?.rejections.length ?? 0, 'the guard refused the resume').toBe(guard ? 1 : 0);

  const state = await caughtUp(panel, page);
  const rules = [...new Set(state.findings.map((f) => f.rule))].sort();
  // Exported first: the capture tells whether the lab's fault landed before the panel is judged on it.
  const file = join(exportsDir, `${name}.capture.json`);
  copyFileSync(await exportCapture(panel), file);
  await panel.close();
  await page.close();
  return { state, rules, file, notLanded: cutShortfall(lab, file) || silentResume(file) };
}

for (const name of SUBSET) {
  const scenario = findScenario(name) as Scenario;
  const must = scenario.expected.must.length ? scenario.expected.must.join(', ') : 'no error or warning';
  test(`Firefox, ${name}: the panel shows ${must}; the CLI on the exported capture agrees`, async () => {
    let run = await runScenario(name, scenario);
    if (run.notLanded) {
      // The lab failed to set up the hazard (seen on a loaded machine): say so, and set it up once more from a fresh
      // origin. The inspector is judged only on a run where the hazard reached the page.
      test.info().annotations.push({ type: 'lab fault did not land; run again', description: run.notLanded });
      await lab.setScenario('clean');
      run = await runScenario(name, scenario);
    }
    expect(run.notLanded, 'the lab fault reached the page').toBe('');
    const { state, rules, file } = run;
    const applied = lab.log().map((entry) => entry.action);
    const seen = `panel: ${state.sessions} session(s), ${state.events} event(s), wire ${JSON.stringify(state.wire)}; lab applied: ${applied.join(', ')}`;
    expect(state.events).toBeGreaterThan(0);
    for (const rule of scenario.expected.must) expect(rules, `${rule} is reported (${seen})`).toContain(rule);
    for (const rule of scenario.expected.mustNot) expect(rules, `${rule} must not be reported`).not.toContain(rule);
    if (scenario.expected.must.length === 0) {
      expect(state.findings.filter((f) => f.severity === 'error' || f.severity === 'warning')).toEqual([]);
    }
    expect(await cliRules(file)).toEqual(rules);
  });
}

test('Firefox, resume-409 behind the client guard: refused, re-initialized, answered; the refusal is info only', async () => {
  const run = await runScenario('resume-409', findScenario('resume-409') as Scenario, true);
  expect(run.state.sessions).toBe(2);
  expect(run.state.findings).toEqual([{ rule: 'resumption-rejected', severity: 'info' }]);
  expect(await cliRules(run.file)).toEqual(['resumption-rejected']);
});

test('Firefox, a live hang: a silent tool call gets a running clock, then request-hang while it waits', async () => {
  const pageUrl = `${lab.url}/`;
  const page = await context.newPage();
  await page.goto(pageUrl);
  const panel = await openPanelFor(pageUrl);
  // The settings' silence rules: a request hangs after 2 s without a message.
  await panel.click('[data-testid=settings]');
  await panel.waitForSelector('[data-testid=hang-after]', { visible: true });
  await panel.click('[data-testid=hang-after]', { count: 3 });
  await panel.type('[data-testid=hang-after]', '2');
  await panel.keyboard.press('Enter');
  await expect
    .poll(() => panel.evaluate(() => document.querySelector('.settings-popover [role=status]')?.textContent ?? ''))
    .toContain('Saved');
  await panel.keyboard.press('Escape');

  await page.evaluate(() => {
    (window as unknown as { __slow: Promise<unknown> }).__slow = (
      window as unknown as { __lab: LabPageApi }
    ).__lab.callTool('stream_progress_slow');
  });
  const text = (selector: string) =>
    panel.evaluate((s) => [...document.querySelectorAll(s)].map((e) => e.textContent ?? ''), selector);
  await expect
    .poll(() => text('[data-testid=waiting]'))
    .toEqual([expect.stringMatching(/^waitingtools\/call \d+ has waited/)]);
  await expect
    .poll(() => text('[data-testid=finding][data-rule=request-hang]'))
    .toEqual([expect.stringMatching(/has waited [\d.]+ s unanswered: \S+ is open and sent no message for [\d.]+ s/)]);
  // The timeline draws the call's silence running to now, as waiting.
  await expect
    .poll(() => text('[data-testid=quiet-stretch][data-waiting=true] title'))
    .toEqual([expect.stringMatching(/^Still waiting: no byte for [\d.]+ (ms|s)$/)]);
  await panel.screenshot({ path: 'test-results/panel-live-hang-firefox.png' });

  const result = await page.evaluate(() => (window as unknown as { __slow: Promise<{ verdict: string }> }).__slow);
  expect(result.verdict).toBe('ok');
  await expect
    .poll(() =>
      text(
        '[data-testid=waiting], [data-testid=finding][data-rule=request-hang], [data-testid=quiet-stretch][data-waiting=true]',
      ),
    )
    .toEqual([]);
  await panel.close();
  await page.close();
});
