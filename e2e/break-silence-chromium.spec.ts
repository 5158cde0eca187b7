// Node (Playwright): the Break menu's silence faults in Chromium, with the built extension, against the fault lab's
// real SDK server and the real SDK client of its demo page (the lab's proxy applies no fault: the tap in the page
// does): buffer, stall, an idle cut once, and an idle proxy that cuts every quiet stream until Disarm. The steps are
// shared with Firefox (fixtures/break-silence.ts).
import { test } from '@playwright/test';
import { breakLabChromium } from './fixtures/break-lab-chromium';
import { bufferStep, idleCutStep, idleProxyStep, type SilenceRun, stallStep } from './fixtures/break-silence';

const { recorder, openPair } = breakLabChromium('mcp-break-silence-');

async function silenceRun(step: (run: SilenceRun) => Promise<void>): Promise<void> {
  const { page, panel } = await openPair();
  await step({
    panel,
    page,
    recorder,
    headResolvesFetch: true,
    screenshot: (name: string) => panel.screenshot({ path: `test-results/${name}.png` }),
  });
  await Promise.all([panel.close(), page.close()]);
}

test('Break: buffer the next tools/call stream; the page gets it whole at its end; buffered-stream links to it', () =>
  silenceRun(bufferStep));

test('Break: stall the next tools/call stream; it pauses before its first event with data, then arrives whole', () =>
  silenceRun(stallStep));

test('Break: an idle cut once; the silent call is cut after its priming event, resumed from it, and answered', () =>
  silenceRun(idleCutStep));

test('Break: an idle proxy cuts every quiet stream until Disarm; idle-timeout-cut names the measured silence', () =>
  silenceRun(idleProxyStep));
