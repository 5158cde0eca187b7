// Node (Playwright): the package's Playwright fixture as a user's test uses it, imported by package name (the built
// dist/node/playwright.js and its types), against the fault lab: the real SDK client in the demo page, the real SDK
// server behind the project's fault proxy. Chromium comes from the project's launcher (loopback black hole), with no
// extension: the fixture's init script is the only thing that records.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { expect, test as mcpTest } from 'mcp-stream-inspector/playwright';
import { parseCapture } from '../src/core/index';
import { RECORDER_BINDING } from '../src/protocol/events';
import { wireSignature } from '../src/panel/view/wireSignature';
import { cutShortfall } from './fixtures/lab-fault';
import type { LabPageApi, LabPageResult } from './lab/client/main';
import type { ScenarioName } from './lab/scenarios';
import { type Lab, startLab } from './lab/start-lab';
import { chromiumWorker } from './fixtures/chromium-worker';
import type { ChromiumSession } from './launcher';

const CLI = 'bin/mcp-stream-inspector.js';

interface CliReport {
  findings: { rule: string; severity: string }[];
  sessions: unknown[];
}

/** What each test had attached once the fixture's own teardown (which runs before the context's) was done. */
const attachedAtTeardown = new Map<string, { name: string; body: string }[]>();

// One lab and one Chromium for the file; each test records the shared context afresh (the fixture removes its binding
// and init script after a test, so the next one can add them again) in a page of its own.
const test = mcpTest.extend<object, { lab: Lab; chromium: ChromiumSession }>({
  lab: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none
    async ({}, provide) => {
      // A page build of our own: another spec may be building dist/lab at the same moment.
      const pageDir = mkdtempSync(join(tmpdir(), 'mcp-fixture-lab-page-'));
      const lab = await startLab({ build: 'always', pageDir });
      await provide(lab);
      await lab.close();
      rmSync(pageDir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  chromium: chromiumWorker,
  context: async ({ chromium }, provide, testInfo) => {
    await provide(chromium.context);
    attachedAtTeardown.set(
      testInfo.title,
      testInfo.attachments.map((a) => ({ name: a.name, body: a.body?.toString('utf8') ?? '' })),
    );
  },
});

async function runScenario(page: Page, lab: Lab, name: ScenarioName): Promise<LabPageResult> {
  await page.goto(`${lab.url}/?scenario=${name}`);
  return page.evaluate((scenario) => (window as unknown as { __lab: LabPageApi }).__lab.run(scenario), name);
}

/** `mcp-stream-inspector analyze` on the capture text, as a CI step would run it. */
async function analyzeWithCli(captureText: string, dir: string): Promise<CliReport> {
  const file = join(dir, 'mcp.capture.json');
  writeFileSync(file, captureText);
  const { stdout } = await promisify(execFile)('node', [CLI, 'analyze', file, '--json', '--fail-on', 'never'], {
    maxBuffer: 64 << 20,
  });
  return JSON.parse(stdout) as CliReport;
}

const CLEAN =
  'clean: the SDK client runs as without the fixture, toHaveNoMcpFindings passes, the capture holds all the page saw';

test(CLEAN, async ({ page, lab, mcpCapture }, testInfo) => {
  const result = await runScenario(page, lab, 'clean');
  expect(result.verdict, result.detail).toBe('ok');
  // The fixture's binding was taken off window before the page's scripts ran.
  expect(await page.evaluate((name) => name in window, RECORDER_BINDING)).toBe(false);

  await expect(page).toHaveNoMcpFindings({ failOn: 'info' });

  // mcpCapture() asks the tap for what it holds: the capture at once has every connection, answer, byte and end the
  // page's own fetch saw (no waiting for a quiet spell).
  const text = await mcpCapture();
  const capture = parseCapture(text);
  const pageWire = await page.evaluate(() => (window as unknown as { __lab: LabPageApi }).__lab.wire());
  expect(wireSignature(capture.connections)).toEqual(pageWire);
  expect(capture.connections.some((c) => c.method === 'POST' && c.requestBody?.includes('"tools/call"'))).toBe(true);
  // Redacted as exports are: the session id is an alias.
  const sessionIds = capture.connections.flatMap((c) =>
    [...c.requestHeaders, ...(c.responseHeaders ?? [])].filter((h) => h.name.toLowerCase() === 'mcp-session-id'),
  );
  expect(sessionIds.length).toBeGreaterThan(0);
  for (const h of sessionIds) expect(h.value).toMatch(/^redacted-session-\d+$/);

  const report = await analyzeWithCli(text, testInfo.outputPath());
  expect(report.sessions.length).toBeGreaterThan(0);
  expect(report.findings).toEqual([]);
});

test('cut-mid-event: toHaveNoMcpFindings fails with torn-event-reconnect at failOn warning, and attaches the capture', async ({
  page,
  lab,
  mcpCapture,
}, testInfo) => {
  const result = await runScenario(page, lab, 'cut-mid-event');
  expect(result.verdict, result.detail).toBe('ok');
  const text = await mcpCapture();
  const dir = testInfo.outputPath();
  writeFileSync(join(dir, 'shortfall.capture.json'), text);
  const shortfall = cutShortfall(lab, join(dir, 'shortfall.capture.json'));
  expect(shortfall, 'the lab cut landed whole in the browser').toBe('');

  // The torn event is a warning: the default failOn (error) lets it pass, failOn warning does not.
  await expect(page).toHaveNoMcpFindings();
  await expect(page).not.toHaveNoMcpFindings({ failOn: 'warning' });
  const failure = expect(page).toHaveNoMcpFindings({ failOn: 'warning' });
  await expect(failure).rejects.toThrow(/1 MCP finding\(s\) at or above warning/);
  await expect(failure).rejects.toThrow(/warning torn-event-reconnect: .*Last-Event-ID/);
  await expect(failure).rejects.toThrow(/docs: .*src\/core\/guard\/rules\/torn-event-reconnect\.md/);

  // The failing matcher attached the capture it judged, redacted.
  const attached = testInfo.attachments.filter((a) => a.name === 'mcp-capture (toHaveNoMcpFindings).json');
  expect(attached.length).toBeGreaterThan(0);
  const body = attached[0]?.body?.toString('utf8') ?? '';
  expect(body).not.toMatch(/"name": "mcp-session-id",\s*"value": "(?!redacted-session-)/i);
  const attachedCapture = parseCapture(body);
  expect(attachedCapture.connections.length).toBe(parseCapture(text).connections.length);

  // The CLI finds the same in mcpCapture()'s text.
  const report = await analyzeWithCli(text, dir);
  expect([...new Set(report.findings.map((f) => f.rule))]).toEqual(['torn-event-reconnect']);
});

const FAILING = 'a failing test gets the capture attached to its report';

test(FAILING, async ({ page, lab }) => {
  test.fail(true, 'fails on purpose: the fixture attaches the capture when a test fails');
  const result = await runScenario(page, lab, 'clean');
  expect(result.verdict, 'a deliberately wrong expectation').toBe('corrupted');
});

test.afterAll(() => {
  // Checked here, after the failing test's teardown: a failure inside that test would only count as expected.
  const attached = attachedAtTeardown.get(FAILING) ?? [];
  const capture = attached.find((a) => a.name === 'mcp-capture.json');
  expect(capture, `attachments: ${attached.map((a) => a.name).join(', ')}`).toBeDefined();
  const connections = parseCapture(capture?.body ?? '').connections;
  expect(connections.some((c) => c.method === 'POST' && c.requestBody?.includes('"tools/call"'))).toBe(true);
  // Nothing attached when a test passes.
  expect(attachedAtTeardown.get(CLEAN)?.map((a) => a.name)).toEqual([]);
});
