// Node (Playwright runner, puppeteer-core over WebDriver BiDi): the panel's Break menu in Firefox ESR with the built
// extension, against the fault lab's real SDK server and the real SDK client of its demo page: each fault strikes
// once, shows on the timeline, the finding it provokes links to it; a cut fails the page's stream with Firefox's own
// network error; unarmed, the page receives exactly what the server sent.
import { expect, test } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import type { LabPageApi } from './lab/client/main';
import {
  armInPanel,
  bannerInPanel,
  BREAK_CASES,
  callTool,
  receivedByPage,
  runBreakCase,
  sentByProxy,
  until,
} from './fixtures/break-cases';
import { evaluating, breakLabFirefox } from './fixtures/break-lab-firefox';

const { recorder, lab, newPage, openPair } = breakLabFirefox('mcp-break-page-');

const lab$ = (page: Page) => ({
  received: () => page.evaluate(() => (window as unknown as { __lab: LabPageApi }).__lab.received()),
});
const disconnectError = (errors: string[]): string => errors.find((e) => /disconnected/i.test(e)) ?? '';

for (const c of BREAK_CASES) {
  test(`Firefox Break: ${c.name}: ${c.must.join(', ')}, linked to ${c.provokedBy}`, async () => {
    const { page, panel } = await openPair();
    await runBreakCase(c, evaluating(panel), evaluating(page));
    if (c === BREAK_CASES[0]) await panel.screenshot({ path: 'test-results/break-finding-firefox.png' });
    await Promise.all([panel.close(), page.close()]);
  });
}

test("Firefox Break: a cut fails the page's stream with the error a real network failure raises", async () => {
  const native = await newPage();
  await native.goto(`${lab().url}/`);
  const real = await native.evaluate(() => (window as unknown as { __lab: LabPageApi }).__lab.run('cut-mid-event'));
  await lab().setScenario('clean');
  await native.close();
  const { page, panel } = await openPair();
  await panel.evaluate(armInPanel, { cut: 'cut-mid-event', resume: 'none' });
  await until(
    () => panel.evaluate(bannerInPanel),
    (s) => s === 'armed',
    'the banner',
  );
  const wireBefore = recorder.exchanges().length;
  // The long call: its stream would run seconds past the cut, so 'aborted' below is the tap's doing, not a race.
  const broken = await callTool(evaluating(page), 'stream_progress_long');
  expect(broken.verdict, broken.detail).toBe('ok');
  // The tap aborted the real fetch: the server's side of the cut stream saw the client go, mid-stream.
  const calls = recorder
    .exchanges()
    .slice(wireBefore)
    .filter((x) => x.method === 'POST' && x.requestBody?.toString().includes('"tools/call"'));
  expect(calls.map((x) => x.end)).toEqual(['aborted']);
  expect(disconnectError(broken.clientErrors)).not.toBe('');
  expect(disconnectError(broken.clientErrors)).toBe(disconnectError(real.clientErrors));
  await Promise.all([panel.close(), page.close()]);
});

test('Firefox Break: a reload disarms; unarmed, the page receives exactly what the server sent', async () => {
  const { page, panel } = await openPair();
  await panel.evaluate(armInPanel, { cut: 'cut-mid-event', resume: 'none' });
  await until(
    () => panel.evaluate(bannerInPanel),
    (s) => s === 'armed',
    'the banner',
  );
  await page.reload();
  await until(
    () => panel.evaluate(bannerInPanel),
    (s) => s === 'none',
    'the banner after the reload',
  );
  recorder.reset();
  const result = await callTool(evaluating(page));
  expect(result.verdict, result.detail).toBe('ok');
  // The client closes its transport at the end: the aborts that causes are its own (Firefox: "The operation was aborted.").
  expect(result.clientErrors.filter((e) => !/abort/i.test(e))).toEqual([]);
  expect(await recorder.settled(10_000)).toBe(true);
  const sent = sentByProxy(recorder.exchanges());
  expect(sent.length).toBeGreaterThan(2);
  expect(receivedByPage(await lab$(page).received())).toEqual(sent);
  await Promise.all([panel.close(), page.close()]);
});
