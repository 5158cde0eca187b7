// Node (Playwright): the panel on a real MCP Inspector 2.12 recording (fixtures/mcp-inspector.capture.json), imported
// as a user would, in Chromium with the built extension: the backend's MCP session shows as what it is, labelled
// "relayed: bytes not visible", judged clean, and the envelope stream it was decoded from is listed apart.
import { expect, test } from '@playwright/test';
import { DIST_CHROME, panelUrl } from './fixtures/extension';
import { readPanelProgress } from './fixtures/panel-view';
import { type ChromiumSession, launchChromium } from './launcher';

const RECORDING = 'fixtures/mcp-inspector.capture.json';

let session: ChromiumSession;

test.beforeAll(async () => {
  session = await launchChromium({ extension: DIST_CHROME });
});

test.afterAll(async () => {
  const report = await session?.close();
  expect(report?.violations ?? []).toEqual([]);
});

test('an imported Inspector recording: one relayed 2025-11-25 session, no error or warning, its stream apart', async () => {
  const panel = await session.context.newPage();
  await panel.setViewportSize({ width: 1400, height: 860 });
  await panel.goto(panelUrl(`chrome-extension://${session.extensionId}/`, -1));
  await panel.locator('[data-testid=import-input]').setInputFiles(RECORDING);
  const row = panel.locator('[data-testid=session-row]');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('2025-11-25');
  await expect(row).toContainText('127.0.0.1:47394');
  await expect(row).toContainText('5 conn');
  const relayed = row.locator('[data-testid=session-relayed]');
  await expect(relayed).toHaveText('relayed: bytes not visible');
  await expect(relayed).toHaveAttribute('title', /MCP Inspector's backend/);
  await expect(panel.locator('[data-testid=status-bar]')).toHaveAttribute('data-analysis', 'current');
  const shown = await panel.evaluate(readPanelProgress);
  expect(shown.findings.filter((f) => f.severity === 'error' || f.severity === 'warning')).toEqual([]);
  const others = panel.locator('[data-testid=other-streams]');
  await others.locator('button[aria-expanded=false]').click();
  await expect(others.locator('[data-testid=other-stream-row]').filter({ hasText: '/api/mcp/events' })).toContainText(
    'MCP Inspector backend',
  );
  await panel.screenshot({ path: 'test-results/panel-relayed-inspector-chromium.png' });
  await panel.close();
});
