// Node (Playwright): the panel's Break menu in Chromium, with the built extension, against the fault lab's real SDK
// server and the real SDK client of its demo page (the lab's proxy applies no fault of its own here: the tap in the
// page does, as armed in the panel). Each fault strikes once, shows on the timeline, and the finding it provokes
// links to it; a cut fails the page's stream with the error a real network failure raises; unarmed, the page
// receives exactly what the server sent.
import { expect, test } from '@playwright/test';
import type { LabPageApi } from './lab/client/main';
import {
  armInPanel,
  bannerInPanel,
  BREAK_CASES,
  breakShownInPanel,
  callTool,
  caughtUp,
  receivedByPage,
  runBreakCase,
  sentByProxy,
  until,
} from './fixtures/break-cases';
import { breakLabChromium } from './fixtures/break-lab-chromium';
import { CAUSE_WAIT_MS } from './fixtures/patience';

const { recorder, lab, newPage, openPair } = breakLabChromium('mcp-break-page-');

const lastClientError = (errors: string[]): string => errors.find((e) => /disconnected/i.test(e)) ?? '';

for (const c of BREAK_CASES) {
  test(`Break: ${c.name}: ${c.must.join(', ')}, linked to ${c.provokedBy}`, async () => {
    const { page, panel } = await openPair();
    await runBreakCase(c, panel, page, () => panel.screenshot({ path: 'test-results/break-every-resume.png' }));
    await Promise.all([panel.close(), page.close()]);
  });
}

test('Break: a cut fails the page stream as a real network failure does, and the walk-through in docs/panel.md', async () => {
  // A real cut first: the lab's own proxy cuts mid-event (scenario cut-mid-event), the browser raises its error.
  const native = await newPage();
  await native.goto(`${lab().url}/`);
  const real = await native.evaluate(() => (window as unknown as { __lab: LabPageApi }).__lab.run('cut-mid-event'));
  await lab().setScenario('clean');
  await native.close();

  const { page, panel } = await openPair();
  await panel.evaluate(armInPanel, { cut: 'cut-mid-event', resume: 'none' });
  await until(
    () => panel.evaluate(bannerInPanel, undefined),
    (s) => s === 'armed',
    'the banner',
  );
  // The menu, open, as the walk-through's first picture.
  await panel.locator('[data-testid=break-menu]').click();
  await expect(panel.locator('[data-testid=break-popover]')).toBeVisible();
  await panel.screenshot({ path: 'test-results/break-menu.png' });
  await panel.keyboard.press('Escape');

  const wireBefore = recorder.exchanges().length;
  // The long call: its stream would run seconds past the cut, so 'aborted' below is the tap's doing, not a race.
  const broken = await callTool(page, 'stream_progress_long');
  expect(broken.verdict, broken.detail).toBe('ok');
  // The tap aborted the real fetch: the server's side of the cut stream saw the client go, mid-stream.
  const calls = recorder
    .exchanges()
    .slice(wireBefore)
    .filter((x) => x.method === 'POST' && x.requestBody?.toString().includes('"tools/call"'));
  expect(calls.map((x) => x.end)).toEqual(['aborted']);
  // The SDK client reports the same error text for the tap's cut as for the network's.
  expect(lastClientError(broken.clientErrors)).not.toBe('');
  expect(lastClientError(broken.clientErrors)).toBe(lastClientError(real.clientErrors));
  await caughtUp(panel, page);
  await until(
    () => panel.evaluate(breakShownInPanel, undefined),
    (s) => s.markers.length === 1,
    'the marker',
  );
  await panel.locator('[data-testid=finding][data-rule="torn-event-reconnect"]').first().click();
  await expect(panel.locator('[data-testid=finding-fault]').first()).toBeVisible();
  await panel.screenshot({ path: 'test-results/break-finding.png' });
  // The chip selects the exchange the fault struck; its detail names the fault and the byte it struck at.
  await panel.locator('[data-testid=finding-fault]').first().click();
  await expect(panel.locator('[data-testid=connection-fault]')).toHaveText(
    /^cut-mid-event:60 struck at byte \d+ · cut \d+ bytes into the event with id \S+; last whole event: /,
  );
  await panel.screenshot({ path: 'test-results/break-connection.png' });
  await Promise.all([panel.close(), page.close()]);
});

test('Break: a reload disarms, and unarmed the page receives exactly what the server sent', async () => {
  const { page, panel } = await openPair();
  await panel.evaluate(armInPanel, { cut: 'cut-mid-event', resume: 'none' });
  await until(
    () => panel.evaluate(bannerInPanel, undefined),
    (s) => s === 'armed',
    'the banner',
  );
  await page.reload();
  await until(
    () => panel.evaluate(bannerInPanel, undefined),
    (s) => s === 'none',
    'the banner after the reload',
  );

  recorder.reset();
  const result = await callTool(page);
  expect(result.verdict, result.detail).toBe('ok');
  // The client closes its transport at the end: the aborts that causes are its own.
  expect(result.clientErrors.filter((e) => !/abort/i.test(e))).toEqual([]);
  expect(await recorder.settled(CAUSE_WAIT_MS)).toBe(true);
  const received = await page.evaluate(() => (window as unknown as { __lab: LabPageApi }).__lab.received());
  const sent = sentByProxy(recorder.exchanges());
  expect(sent.length).toBeGreaterThan(2);
  expect(receivedByPage(received)).toEqual(sent);
  const shown = await caughtUp(panel, page);
  expect(shown.findings).toEqual([]);
  expect((await panel.evaluate(breakShownInPanel, undefined)).markers).toEqual([]);
  await Promise.all([panel.close(), page.close()]);
});

test('Break: after a fault fired, the next run is untouched byte for byte', async () => {
  const { page, panel } = await openPair();
  await runBreakCase(BREAK_CASES[0]!, panel, page);
  recorder.reset();
  const before = (await page.evaluate(() => (window as unknown as { __lab: LabPageApi }).__lab.received())).length;
  const result = await callTool(page);
  expect(result.verdict, result.detail).toBe('ok');
  // The client closes its transport at the end: the aborts that causes are its own.
  expect(result.clientErrors.filter((e) => !/abort/i.test(e))).toEqual([]);
  expect(await recorder.settled(CAUSE_WAIT_MS)).toBe(true);
  const received = await page.evaluate(() => (window as unknown as { __lab: LabPageApi }).__lab.received());
  expect(receivedByPage(received.slice(before))).toEqual(sentByProxy(recorder.exchanges()));
  await Promise.all([panel.close(), page.close()]);
});
