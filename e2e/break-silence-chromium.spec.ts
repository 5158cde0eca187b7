// Node (Playwright): the Break menu's silence faults in Chromium, with the built extension, against the fault lab's
// real SDK server and the real SDK client of its demo page (the lab's proxy applies no fault: the tap in the page
// does). "Buffer it" holds the next tools/call stream, head and body, until the server ended it: the page gets
// every byte the server sent, the timeline marks the strike, and the buffered-stream finding links to it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { LabPageApi } from './lab/client/main';
import { WireRecorder } from './lab/proxy/wire-recorder';
import { type Lab, startLab } from './lab/start-lab';
import {
  armInPanel,
  bannerInPanel,
  breakShownInPanel,
  callTool,
  caughtUp,
  receivedByPage,
  sentByProxy,
  until,
} from './fixtures/break-cases';
import { DIST_CHROME, findTabId, panelUrl } from './fixtures/extension';
import { type ChromiumSession, launchChromium } from './launcher';

let lab: Lab;
let session: ChromiumSession;
let pageDir: string;
const recorder = new WireRecorder();

test.beforeAll(async () => {
  pageDir = mkdtempSync(join(tmpdir(), 'mcp-break-silence-'));
  lab = await startLab({ build: 'always', pageDir, recorder });
  session = await launchChromium({ extension: DIST_CHROME });
});

test.afterAll(async () => {
  const report = await session?.close();
  await lab?.close();
  rmSync(pageDir, { recursive: true, force: true });
  expect(report?.violations ?? []).toEqual([]);
});

test('Break: buffer the next tools/call stream; the page gets it whole at its end; buffered-stream links to it', async () => {
  const page = await session.context.newPage();
  await page.goto(`${lab.url}/`);
  const panel = await session.context.newPage();
  await panel.setViewportSize({ width: 1400, height: 860 });
  const base = `chrome-extension://${session.extensionId}/`;
  await panel.goto(panelUrl(base, -1));
  await panel.goto(panelUrl(base, await findTabId(panel, page.url())));
  await expect(panel.locator('[data-testid=empty-state]')).toBeVisible();

  await panel.evaluate(armInPanel, { cut: 'buffer', resume: 'none' });
  await until(
    () => panel.evaluate(bannerInPanel, undefined),
    (s) => s === 'armed',
    'the banner',
  );
  await expect(panel.locator('[data-testid=break-banner] [data-fault="buffer"]')).toHaveText(
    'Hold the next tools/call stream, head and body, until it ends',
  );

  recorder.reset();
  // 30 progress notifications written over seconds, then the answer.
  const result = await callTool(page, 'stream_progress_long');
  expect(result.verdict, result.detail).toBe('ok');
  expect(result.calls[0]?.progress).toHaveLength(30);
  expect(await recorder.settled(10_000)).toBe(true);
  // The server wrote the stream piece by piece; the page got exactly those bytes, every exchange alike.
  const call = recorder
    .exchanges()
    .find((x) => x.method === 'POST' && x.requestBody?.toString().includes('"tools/call"'));
  expect(call?.chunks.length).toBeGreaterThan(30);
  const received = await page.evaluate(() => (window as unknown as { __lab: LabPageApi }).__lab.received());
  expect(receivedByPage(received)).toEqual(sentByProxy(recorder.exchanges()));

  await caughtUp(panel, page);
  // One strike: the banner goes, the timeline marks it, and the finding it provoked says so.
  const shown = await until(
    () => panel.evaluate(breakShownInPanel, undefined),
    (s) => s.markers.length === 1 && s.findings.some((f) => f.rule === 'buffered-stream'),
    'the marker and the finding',
  );
  expect(shown.markers).toEqual(['buffer']);
  expect(shown.findings.filter((f) => f.rule === 'buffered-stream')).toEqual([
    { rule: 'buffered-stream', fault: 'buffer' },
  ]);
  expect(await panel.evaluate(bannerInPanel, undefined)).toBe('none');
  await panel.locator('[data-testid=finding][data-rule="buffered-stream"]').first().click();
  await panel.locator('[data-testid=finding-fault]').first().click();
  await expect(panel.locator('[data-testid=connection-fault]')).toHaveText(
    /^buffer struck at byte 0 · held 32 events \(\d+ bytes\) and the head until the end, then sent them at once$/,
  );
  // What the page read of it, as the tap recorded: the whole body in one piece, at its end.
  await expect(panel.locator('dt:text-is("Body") + dd')).toHaveText(/ in 1 chunks, 32 events$/);
  await panel.screenshot({ path: 'test-results/break-buffer.png' });
  await Promise.all([panel.close(), page.close()]);
});
