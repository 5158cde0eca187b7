// Node (Playwright): `mcpReplay` as a user's test uses it, imported by package name (the built dist/node/playwright.js):
// the lab's cut-mid-event recording (SDK 1.32 client and server, cut 60 bytes into an event by the fault proxy)
// served by the replay to a web app's page in Chromium (project launcher, loopback black hole, no extension), on
// another origin than the replay. The page's client must meet the recorded torn event byte for byte, resume from the
// same cursor and get the same answer, and the fixture's recorder must find the recorded bug in what the page saw.
import { chromiumWorker } from './fixtures/chromium-worker';
import type { ChromiumSession } from './launcher';
import { expect, mcpReplay, test as mcpTest } from 'mcp-stream-inspector/playwright';
import { analyze, parseCapture } from '../src/core/index';
import type { ConnectionRecord } from '../src/core/capture/model';
import { fixtureCapture } from '../src/core/replay/replay.fixture';
import {
  REPLAY_PAGE_PATH,
  type ReplayPageRequests,
  type ReplayPageResult,
  startReplayPage,
} from './fixtures/replay-page';

const FIXTURE = 'cut-mid-event';

const test = mcpTest.extend<object, { chromium: ChromiumSession; app: string }>({
  chromium: chromiumWorker,
  app: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none
    async ({}, provide) => {
      const page = await startReplayPage();
      await provide(page.origin);
      await page.close();
    },
    { scope: 'worker' },
  ],
  context: async ({ chromium }, provide) => {
    await provide(chromium.context);
  },
});

const bodyText = (record: ConnectionRecord): string =>
  Buffer.concat(record.chunks.map((c) => Buffer.from(c.bytes))).toString('utf8');

function recorded(what: (record: ConnectionRecord) => boolean): ConnectionRecord {
  const record = fixtureCapture(FIXTURE).connections.find(what);
  if (!record) throw new Error(`${FIXTURE}: no such recorded connection`);
  return record;
}

const byMethod = (method: string) => (r: ConnectionRecord) => r.requestBody?.includes(`"method":"${method}"`) === true;
const isResume = (r: ConnectionRecord) => r.requestHeaders.some((h) => h.name.toLowerCase() === 'last-event-id');

test(`${FIXTURE} replayed to a page: the same torn event, the same resume, the same finding`, async ({
  page,
  app,
  mcpCapture,
}) => {
  const call = recorded(byMethod('tools/call'));
  const resume = recorded(isResume);
  // The recorded client's requests (their ids and progress token too), so every answer is the recorded one as is.
  const requests: ReplayPageRequests = {
    initialize: recorded(byMethod('initialize')).requestBody ?? '',
    initialized: recorded(byMethod('notifications/initialized')).requestBody ?? '',
    call: call.requestBody ?? '',
  };
  const replay = await mcpReplay(page, `fixtures/${FIXTURE}/capture.har`, {
    chunks: `fixtures/${FIXTURE}/chunks.ndjson`,
  });
  expect(new URL(replay.url).origin).not.toBe(app);
  await page.goto(`${app}${REPLAY_PAGE_PATH}`);
  const seen = await page.evaluate(
    ([url, sent]) =>
      (window as unknown as { __run: (u: string, r: ReplayPageRequests) => Promise<ReplayPageResult> }).__run(
        url,
        sent,
      ),
    [replay.url, requests] as const,
  );

  // The stream ended in a network error after exactly the recorded bytes: the event it was in stays torn.
  expect(seen.callError).toBe('TypeError');
  expect(seen.call).toBe(bodyText(call));
  expect(seen.call.endsWith('\n\n'), 'the last event is torn').toBe(false);
  // The page resumed from the recorded cursor and got what the recorded server answered.
  const recordedCursor = resume.requestHeaders.find((h) => h.name.toLowerCase() === 'last-event-id')?.value;
  expect(seen.lastEventId).toBe(recordedCursor);
  expect(seen.resume).toBe(bodyText(resume));
  expect(replay.divergences()).toEqual([]);

  // What the page saw, recorded by the fixture's tap, has the recorded bug.
  const capture = parseCapture(await mcpCapture());
  const rules = (findings: { rule: string }[]) => [...new Set(findings.map((f) => f.rule))].sort();
  expect(rules(analyze(capture).findings)).toEqual(rules(analyze(fixtureCapture(FIXTURE)).findings));
  expect(rules(analyze(capture).findings)).toContain('torn-event-reconnect');

  // The replay stops with the page.
  await page.close();
  await expect
    .poll(() =>
      fetch(replay.url).then(
        () => 'open',
        () => 'closed',
      ),
    )
    .toBe('closed');
});
