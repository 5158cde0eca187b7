// Node (benches): CPU time of a page's main thread, from CDP Performance.getMetrics ("ThreadTime"). Unlike wall
// time, it hardly moves when other sessions load the machine, so it shows the page's own cost of a read (the tap and
// the bridge run on that thread) even when the speed figures are noisy.
import type { BrowserContext, CDPSession, Page } from '@playwright/test';

export interface ThreadClock {
  /** CPU ms the page's main thread has used so far. */
  now(): Promise<number>;
  detach(): Promise<void>;
}

async function threadMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const thread = metrics.find((m) => m.name === 'ThreadTime');
  if (!thread) throw new Error('Performance.getMetrics has no ThreadTime');
  return thread.value * 1000;
}

export async function threadClock(context: BrowserContext, page: Page): Promise<ThreadClock> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return { now: () => threadMs(cdp), detach: () => cdp.detach() };
}
