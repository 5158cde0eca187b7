// Node (Playwright runner, puppeteer-core over WebDriver BiDi): the Break menu's silence faults in Firefox ESR with
// the built extension, against the fault lab's real SDK server and the real SDK client of its demo page: buffer,
// stall, an idle cut once, and an idle proxy that cuts every quiet stream until Disarm. The steps are Chromium's
// (fixtures/break-silence.ts).
import { test } from '@playwright/test';
import { evaluating, breakLabFirefox } from './fixtures/break-lab-firefox';
import { bufferStep, idleCutStep, idleProxyStep, type SilenceRun, stallStep } from './fixtures/break-silence';

const { recorder, openPair } = breakLabFirefox('mcp-break-silence-');

async function silenceRun(step: (run: SilenceRun) => Promise<void>): Promise<void> {
  const { page, panel } = await openPair();
  await step({
    panel: evaluating(panel),
    page: evaluating(page),
    recorder,
    headResolvesFetch: false,
    screenshot: (name: string) => panel.screenshot({ path: `test-results/${name}-firefox.png` }),
  });
  await Promise.all([panel.close(), page.close()]);
}

test('Firefox Break: buffer the next tools/call stream; the page gets it whole at its end; buffered-stream links to it', () =>
  silenceRun(bufferStep));

test('Firefox Break: stall the next tools/call stream; it pauses before its first event with data, then arrives whole', () =>
  silenceRun(stallStep));

test('Firefox Break: an idle cut once; the silent call is cut after its priming event, resumed from it, and answered', () =>
  silenceRun(idleCutStep));

test('Firefox Break: an idle proxy cuts every quiet stream until Disarm; idle-timeout-cut names the measured silence', () =>
  silenceRun(idleProxyStep));
