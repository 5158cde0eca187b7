// Node (Playwright): every fault-lab scenario, run by the real SDK client in the demo page, in Chromium with the built
// extension: the panel shows the expected findings, and the CLI on the exported capture reports the same rules.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import type { LabPageApi } from './lab/client/main';
import { findScenario, type Scenario, scenarios } from './lab/scenarios';
import { type Lab, startLab } from './lab/start-lab';
import { DIST_CHROME, findTabId, panelUrl } from './fixtures/extension';
import { cutShortfall } from './fixtures/lab-fault';
import { ensureNodeBuilt } from './fixtures/node-build';
import { panelCaughtUp, type PanelProgress, readPanelProgress } from './fixtures/panel-view';
import { startEverything } from './lab/peers/everything';
import { CHAT_WORDS } from './lab/proxy/chat-completions';
import { type ChromiumSession, launchChromium } from './launcher';

const CLI = 'bin/mcp-stream-inspector.js';
const SCREENSHOTS: Partial<Record<Scenario['name'], string>> = {
  'cut-mid-event': 'test-results/panel-torn.png',
  'epoch-restart-clamp': 'test-results/panel-epoch.png',
  'ai-sdk-close-not-resumed': 'test-results/panel-post-stream-not-resumed.png',
};

/** What the session header must say of the client's reconnects, where the scenario shows it. */
const RECONNECT_LINES: Partial<Record<Scenario['name'], string>> = {
  'server-close-resumed': 'resumes POST streams: yes · honours retry: yes · de-duplicates: unknown',
  'ai-sdk-close-not-resumed': 'resumes POST streams: no · honours retry: no · de-duplicates: unknown',
};

interface CliReport {
  findings: { rule: string; severity: string }[];
  sessions: { streams: { events: unknown[] }[] }[];
}

// One lab and one browser for all scenarios (tests of a file run in order in one worker; a failure restarts both).
let lab: Lab;
let session: ChromiumSession;
let pageDir: string;
/** Exported captures (not test-results/: other runs may clean it while this one reads). */
let exportsDir: string;

test.beforeAll(async () => {
  ensureNodeBuilt();
  // A page build of our own: another spec may be building dist/lab at the same moment.
  pageDir = mkdtempSync(join(tmpdir(), 'mcp-lab-page-'));
  lab = await startLab({ build: 'always', pageDir });
  exportsDir = mkdtempSync(join(tmpdir(), 'mcp-lab-exports-'));
  session = await launchChromium({ extension: DIST_CHROME });
});

test.afterAll(async () => {
  const report = await session?.close();
  await lab?.close();
  rmSync(pageDir, { recursive: true, force: true });
  rmSync(exportsDir, { recursive: true, force: true });
  expect(report?.violations ?? []).toEqual([]);
});

// A fresh origin after every scenario: a hung stream or a restarted epoch cannot leak into the next one.
test.afterEach(async () => {
  await lab.setScenario('clean');
});

async function openPanelFor(url: string): Promise<Page> {
  const panel = await session.context.newPage();
  const base = `chrome-extension://${session.extensionId}/`;
  await panel.goto(panelUrl(base, -1));
  await panel.goto(panelUrl(base, await findTabId(panel, url)));
  return panel;
}

/** Once the panel holds all the page's fetch saw and has analysed it (see panelCaughtUp): what it shows. */
function caughtUp(panel: Page, page: Page): Promise<PanelProgress> {
  return panelCaughtUp({
    panel: () => panel.evaluate(readPanelProgress),
    page: () => page.evaluate(() => (window as unknown as { __lab: LabPageApi }).__lab.wire()),
  });
}

/** The rule ids the panel shows once caught up. */
async function caughtUpRules(panel: Page, page: Page): Promise<string[]> {
  const shown = await caughtUp(panel, page);
  return [...new Set(shown.findings.map((f) => f.rule))].sort();
}

/** The demo page (its fault-free playground) and a panel on it, still empty, at the screenshots' size. */
async function openDemo(): Promise<{ page: Page; panel: Page }> {
  const pageUrl = `${lab.url}/`;
  const page = await session.context.newPage();
  await page.goto(pageUrl);
  const panel = await openPanelFor(pageUrl);
  await panel.setViewportSize({ width: 1400, height: 860 });
  await expect(panel.locator('[data-testid=empty-state]')).toBeVisible();
  return { page, panel };
}

async function cliReport(file: string): Promise<CliReport> {
  const { stdout } = await promisify(execFile)('node', [CLI, 'analyze', file, '--json', '--fail-on', 'never'], {
    maxBuffer: 64 << 20,
  });
  return JSON.parse(stdout) as CliReport;
}

for (const scenario of scenarios) {
  const must = scenario.expected.must.length ? scenario.expected.must.join(', ') : 'no error or warning';
  test(`${scenario.name}: the panel shows ${must}; the CLI on the exported capture agrees`, async () => {
    const pageUrl = `${lab.url}/?scenario=${scenario.name}`;
    const page = await session.context.newPage();
    await page.goto(pageUrl);
    const panel = await openPanelFor(pageUrl);
    await expect(panel.locator('[data-testid=empty-state]')).toBeVisible();

    // The demo page's SDK client ends as it does without the extension: the tap changes nothing it sees.
    const result = await page.evaluate(
      (name) => (window as unknown as { __lab: LabPageApi }).__lab.run(name),
      scenario.name,
    );
    expect(result.verdict, result.detail).toBe(scenario.clientVerdict);

    // The client has finished (hung calls timed out, the transport closed): once the panel has caught up with
    // everything the page's fetch saw, its findings are final.
    const panelRules = await caughtUpRules(panel, page);
    const [download] = await Promise.all([
      panel.waitForEvent('download'),
      panel.locator('[data-testid=export-capture]').click(),
    ]);
    const file = join(exportsDir, `${scenario.name}.capture.json`);
    await download.saveAs(file);
    const shortfall = cutShortfall(lab, file);
    if (shortfall) test.info().annotations.push({ type: 'lab fault did not land whole', description: shortfall });

    expect(panelRules, `the panel reports every expected rule${shortfall ? ` (note: ${shortfall})` : ''}`).toEqual(
      expect.arrayContaining(scenario.expected.must),
    );
    for (const rule of scenario.expected.mustNot)
      expect(panelRules, `${rule} must not be reported`).not.toContain(rule);
    if (scenario.expected.must.length === 0) {
      await expect(
        panel.locator('[data-testid=finding][data-severity=error], [data-testid=finding][data-severity=warning]'),
      ).toHaveCount(0);
    }

    const reconnects = RECONNECT_LINES[scenario.name];
    if (reconnects) await expect(panel.locator('[data-testid=session-reconnect]')).toHaveText([reconnects]);

    const screenshot = SCREENSHOTS[scenario.name];
    if (screenshot) {
      // Select the scenario's main finding, so the timeline, the table and the detail show it.
      await panel.locator(`[data-testid=finding][data-rule="${scenario.expected.must[0]}"]`).first().click();
      await panel.screenshot({ path: screenshot });
    }

    const report = await cliReport(file);
    expect(report.sessions.flatMap((s) => s.streams.flatMap((stream) => stream.events)).length).toBeGreaterThan(0);
    expect([...new Set(report.findings.map((f) => f.rule))].sort()).toEqual(panelRules);
    if (scenario.expected.must.length === 0) {
      expect(report.findings.filter((f) => f.severity === 'error' || f.severity === 'warning')).toEqual([]);
    }
    await Promise.all([panel.close(), page.close()]);
  });
}

test('resume-409 behind the client guard: refused, re-initialized, answered; the panel shows the refusal as info only', async () => {
  const pageUrl = `${lab.url}/?scenario=resume-409`;
  const page = await session.context.newPage();
  await page.goto(pageUrl);
  const panel = await openPanelFor(pageUrl);
  await panel.setViewportSize({ width: 1400, height: 860 });
  const result = await page.evaluate(() =>
    (window as unknown as { __lab: LabPageApi }).__lab.run('resume-409', { guard: true }),
  );
  // Unguarded this client hangs (the scenario's clientVerdict); behind the guard it is refused and completes.
  expect(findScenario('resume-409')?.clientVerdict).toBe('hung');
  expect(result.verdict, result.detail).toBe('ok');
  expect(result.guard?.rejections.map((r) => r.rule)).toEqual(['resumption-rejected']);
  expect(result.guard?.retried).toEqual(['stream_progress']);

  const shown = await caughtUp(panel, page);
  // The old session and the re-initialized one; the server's 409 as info, nothing at error or warning.
  expect(shown.sessions).toBe(2);
  expect(shown.findings).toEqual([{ rule: 'resumption-rejected', severity: 'info' }]);
  await panel.locator('[data-testid=finding][data-rule=resumption-rejected]').first().click();
  await panel.screenshot({ path: 'test-results/lab-guarded-chromium.png' });
  const [download] = await Promise.all([
    panel.waitForEvent('download'),
    panel.locator('[data-testid=export-capture]').click(),
  ]);
  const file = join(exportsDir, 'resume-409-guarded.capture.json');
  await download.saveAs(file);
  const report = await cliReport(file);
  expect(report.findings.map((f) => [f.rule, f.severity])).toEqual([['resumption-rejected', 'info']]);
  await Promise.all([panel.close(), page.close()]);
});

test('a live hang: a silent tool call is listed with a running clock, then request-hang fires while it waits', async () => {
  const { page, panel } = await openDemo();
  // The settings' silence rules: a request hangs after 2 s without a message (the default is 30 s).
  await panel.locator('[data-testid=settings]').click();
  const hangAfter = panel.locator('[data-testid=hang-after]');
  await hangAfter.fill('2');
  await hangAfter.press('Enter');
  await expect(panel.locator('.settings-popover [role=status]')).toContainText('Saved');
  await panel.keyboard.press('Escape');

  // The tool sends a progress notification every 5 s: its stream is silent in between. Not awaited: it runs on.
  await page.evaluate(() => {
    (window as unknown as { __slow: Promise<unknown> }).__slow = (
      window as unknown as { __lab: LabPageApi }
    ).__lab.callTool('stream_progress_slow');
  });
  const waiting = panel.locator('[data-testid=waiting]');
  await expect(waiting).toHaveCount(1);
  await expect(waiting).toContainText('tools/call');
  /** The waiting row's clock, in ms ("950 ms", "3.1 s"). */
  const waitedOf = async () => {
    const [, value, unit] = /has waited ([\d.]+) (ms|s)\b/.exec((await waiting.textContent()) ?? '') ?? [];
    return Number(value) * (unit === 's' ? 1000 : 1);
  };
  const first = await waitedOf();
  // The clock runs with nothing arriving: a later reading is larger.
  await expect.poll(waitedOf).toBeGreaterThan(first);
  const hang = panel.locator('[data-testid=finding][data-rule=request-hang]');
  await expect(hang).toHaveCount(1);
  await expect(hang).toContainText(
    /request \d+ \(tools\/call\) has waited [\d.]+ s unanswered: \S+ is open and sent no message for [\d.]+ s/,
  );
  // The timeline draws the call's silence running to now, as waiting, with how long it has lasted.
  const waitingStretch = panel.locator('[data-testid=quiet-stretch][data-waiting=true]');
  await expect(waitingStretch).toHaveCount(1);
  await expect(waitingStretch.locator('title')).toHaveText(/^Still waiting: no byte for [\d.]+ (ms|s)$/);
  await hang.click();
  // Room for both lines (the waiting clock and the finding) in the findings pane, as a user would drag it.
  const splitter = panel.getByRole('separator', { name: 'Resize findings' });
  for (let step = 0; step < 6; step++) await splitter.press('ArrowUp');
  await expect(waiting).toBeInViewport();
  await panel.screenshot({ path: 'test-results/panel-live-hang.png' });

  // The answer comes: nothing waits any more, and the hang is over.
  const result = await page.evaluate(() => (window as unknown as { __slow: Promise<{ verdict: string }> }).__slow);
  expect(result.verdict).toBe('ok');
  await expect(waiting).toHaveCount(0);
  await expect(hang).toHaveCount(0);
  await expect(waitingStretch).toHaveCount(0);
  await Promise.all([panel.close(), page.close()]);
});

test('an AI chat turn: the LLM completion streams beside a real MCP tool call; only MCP is judged', async () => {
  const { page, panel } = await openDemo();
  const turn = await page.evaluate(() => (window as unknown as { __lab: LabPageApi }).__lab.chat());
  expect(turn.answer).toBe(CHAT_WORDS.join(''));
  expect(turn.tool.verdict, turn.tool.detail).toBe('ok');

  const shown = await caughtUp(panel, page);
  // One MCP session, judged clean; the completion is listed apart, with every one of its events, and judged not at all.
  expect(shown.sessions).toBe(1);
  expect(shown.findings).toEqual([]);
  const others = panel.locator('[data-testid=other-streams]');
  await expect(others).toContainText('Other streams (1)');
  await others.locator('button[aria-expanded=false]').click();
  const row = others.locator('[data-testid=other-stream-row]');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('OpenAI-style completions');
  await expect(row).toContainText('/v1/chat/completions');
  // Role, the words, the stop chunk, then [DONE].
  await expect(row).toContainText(`${CHAT_WORDS.length + 3} ev`);
  await panel.screenshot({ path: 'test-results/lab-ai-chat-chromium.png' });
  await Promise.all([panel.close(), page.close()]);
});

test('the Vercel AI SDK MCP client: its 2026-07-28 probe and fallback are one session, clean', async () => {
  const { page, panel } = await openDemo();
  const run = await page.evaluate(() => (window as unknown as { __lab: LabPageApi }).__lab.aiSdk());
  expect(run.error).toBeUndefined();
  expect(run.tools).toContain('stream_progress');
  expect(run.text).not.toBe('');

  const shown = await caughtUp(panel, page);
  // Its refused probe and the sessionless GET before the initialize join the session they led to: one session,
  // and the fallback said as info, nothing else.
  expect(shown.sessions).toBe(1);
  expect(shown.findings).toEqual([{ rule: 'version-fallback', severity: 'info' }]);
  await expect(panel.locator('[data-testid=session-row]')).toContainText('(probed 2026-07-28)');
  await panel.screenshot({ path: 'test-results/lab-ai-sdk-chromium.png' });
  await Promise.all([panel.close(), page.close()]);
});

test('use-mcp (the React hook): connects, calls a tool, unmounts; the panel reads how it lived', async () => {
  const { page, panel } = await openDemo();
  const run = await page.evaluate(() => (window as unknown as { __lab: LabPageApi }).__lab.useMcp());
  expect(run.error).toBeUndefined();
  expect(run.state).toBe('ready');
  expect(run.tools).toContain('stream_progress');
  expect(run.text).toContain('stream_progress finished 3 steps');
  const shown = await caughtUp(panel, page);
  // The lab server has no resources or prompts: the hook's resources/list and prompts/list get -32601, and the SDK
  // 1.x transport under it resumes such a finished stream (it counts only a success as the answer). How many
  // resumes land before the unmount depends on the SDK's reconnection delay, so only their kind is asserted.
  expect(shown.sessions).toBe(1);
  expect(shown.findings.length).toBeGreaterThan(0);
  expect(new Set(shown.findings.map((f) => `${f.rule} ${f.severity}`))).toEqual(
    new Set(['resume-after-answer warning']),
  );
  await expect(panel.locator('[data-testid=finding][data-rule="resume-after-answer"]').first()).toContainText(
    'after the stream had delivered a JSON-RPC error -32601',
  );
  await panel.screenshot({ path: 'test-results/lab-use-mcp-chromium.png' });
  await Promise.all([panel.close(), page.close()]);
});

test('the reference server-everything: the SDK client lists its tools and runs a long operation; clean', async () => {
  const everything = await startEverything();
  try {
    const { page, panel } = await openDemo();
    const run = await page.evaluate(
      (url) => (window as unknown as { __lab: LabPageApi }).__lab.peer(url),
      everything.url,
    );
    expect(run.error).toBeUndefined();
    expect(run.tools).toContain('trigger-long-running-operation');
    expect(run.progress).toEqual([1, 2, 3]);
    const shown = await caughtUp(panel, page);
    // Another implementation's event store and ids (UUIDs), cross-origin from the page: one session, clean.
    expect(shown.sessions).toBe(1);
    expect(shown.findings).toEqual([]);
    await expect(panel.locator('[data-testid=session-row]')).toContainText(new URL(everything.url).host);
    await panel.screenshot({ path: 'test-results/lab-server-everything-chromium.png' });
    await Promise.all([panel.close(), page.close()]);
  } finally {
    await everything.close();
  }
});
