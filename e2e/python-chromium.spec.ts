// Node (Playwright): the panel on the Python SDK peer, in Chromium with the built extension. The real Python server
// (mcp 2.3.0, event store, CRLF framing) behind one loopback origin with the v2 demo page (lab/python/front.ts); the
// page's real TS SDK v2 client runs its clean 2026-07-28 scenario (discover, progress, a big result, an elicitation's
// input_required round, a listen stream that gets tools/list_changed). Skipped with the venv's one-line reason where
// Python is missing (a required failure under .ci/run, see lab/python/venv.ts).
import { expect, test, type Page } from '@playwright/test';
import { DIST_CHROME, findTabId, panelUrl } from './fixtures/extension';
import { panelCaughtUp, type PanelProgress, readPanelProgress } from './fixtures/panel-view';
import { buildPageDir } from './fixtures/v2-cases';
import { startPythonFront, type PythonFront } from './lab/python/front';
import { pythonForTests } from './lab/python/venv';
import type { V2PageApi } from './lab/v2/page/main';
import { type ChromiumSession, launchChromium } from './launcher';

const python = pythonForTests();
test.skip(!python.ok, python.ok ? '' : python.reason);

let session: ChromiumSession;
let pageDir: { dir: string; remove(): void };
let front: PythonFront;

test.beforeAll(async () => {
  if (!python.ok) return;
  pageDir = await buildPageDir();
  front = await startPythonFront(python.python, pageDir.dir);
  session = await launchChromium({ extension: DIST_CHROME });
});

test.afterAll(async () => {
  const report = await session?.close();
  await front?.close();
  pageDir?.remove();
  expect(report?.violations ?? []).toEqual([]);
});

async function openPanelFor(url: string): Promise<Page> {
  const panel = await session.context.newPage();
  const base = `chrome-extension://${session.extensionId}/`;
  await panel.goto(panelUrl(base, -1));
  await panel.goto(panelUrl(base, await findTabId(panel, url)));
  return panel;
}

/** The demo page on the Python front, and the panel attached to it before the client runs. */
async function openDemo(): Promise<{ page: Page; panel: Page }> {
  const page = await session.context.newPage();
  await page.goto(front.pageUrl);
  const panel = await openPanelFor(front.pageUrl);
  await panel.setViewportSize({ width: 1400, height: 860 });
  await expect(panel.locator('[data-testid=empty-state]')).toBeVisible();
  return { page, panel };
}

/** Once the panel holds all the page's fetch saw and has analysed it (see panelCaughtUp): what it shows. */
function caughtUp(panel: Page, page: Page): Promise<PanelProgress> {
  return panelCaughtUp({
    panel: () => panel.evaluate(readPanelProgress),
    page: () => page.evaluate(() => (window as unknown as { __v2: V2PageApi }).__v2.wire()),
  });
}

test('the Python server: the TS v2 client runs clean at 2026-07-28; one stateless group, no error or warning', async () => {
  const { page, panel } = await openDemo();
  const result = await page.evaluate(() => (window as unknown as { __v2: V2PageApi }).__v2.run('v2-clean'));
  expect(result.verdict, result.steps.join('\n')).toBe('ok');
  expect(result.steps.join('\n')).toContain('tools/list_changed');
  const shown = await caughtUp(panel, page);
  expect(shown.sessions).toBe(1);
  const loud = shown.findings.filter((f) => f.severity === 'error' || f.severity === 'warning');
  expect(loud).toEqual([]);
  const row = panel.locator('[data-testid=session-row]');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('2026-07-28');
  await expect(row).toContainText(new URL(front.pageUrl).host);
  // discover, four tools/call (progress, big result, ask_user and its requestState retry), listen, its cancel.
  await expect(row).toContainText('7 conn');
  await expect(panel.locator('[data-testid=session-stateless]')).toHaveCount(1);
  await expect(panel.locator('[data-testid=session-relayed]')).toHaveCount(0);
  await panel.screenshot({ path: 'test-results/lab-python-server-chromium.png' });
  await Promise.all([panel.close(), page.close()]);
});
