// Node (Playwright): the panel's per-tab budget in Chromium with the built extension and the real panel page. A page
// streams some 12 MB against a budget of 1 MiB and 10 connections set in the panel's settings form: the panel
// keeps within it by its own counters at every reading, shows the drop with its cause and count, and still
// answers a click and renders what comes next. Every wait is on a count the page or the panel reports.
import { expect, test, type Page } from '@playwright/test';
import { findTabId, openExtensionPage, panelUrl, DIST_CHROME } from './fixtures/extension';
import { startFixtureServer, type FixtureServer } from './fixtures/sse-server';
import { launchChromium, type ChromiumSession } from './launcher';

let server: FixtureServer;
let session: ChromiumSession;

test.beforeAll(async () => {
  server = await startFixtureServer();
  session = await launchChromium({ extension: DIST_CHROME });
});

test.afterAll(async () => {
  const report = await session.close();
  await server.close();
  expect(report.violations).toEqual([]);
});

const MIB = 1024 * 1024;

interface Held {
  heldBytes: number;
  budgetBytes: number;
  heldConnections: number;
  budgetConnections: number;
  /** Streams the panel holds that ended, plus connections its budget dropped whole: every stream, either way. */
  accounted: number;
  analysisCurrent: boolean;
}

/** The status bar's own counters (the worker's held summary). */
function readHeld(panel: Page): Promise<Held> {
  return panel.evaluate(() => {
    const bar = document.querySelector('[data-testid=status-bar]');
    const n = (name: string, el: Element | null | undefined = bar) => Number(el?.getAttribute(name) ?? 'NaN');
    const wire = JSON.parse(bar?.getAttribute('data-wire') ?? '{"streamsEnded":0}') as { streamsEnded: number };
    const drop = document.querySelector('[data-drop=panel-budget]');
    return {
      heldBytes: n('data-held-bytes'),
      budgetBytes: n('data-budget-bytes'),
      heldConnections: n('data-held-connections'),
      budgetConnections: n('data-budget-connections'),
      accounted: wire.streamsEnded + (drop ? n('data-dropped-connections', drop) : 0),
      analysisCurrent: bar?.getAttribute('data-analysis') === 'current',
    };
  });
}

/** Streams `/sse` one after another in the page; `__ended` counts the streams read to their end. */
async function startFlood(page: Page, paths: string[]): Promise<void> {
  await page.evaluate((list) => {
    const w = window as unknown as { __ended: number; __flood: Promise<void> };
    w.__ended = 0;
    w.__flood = (async () => {
      for (const path of list) {
        const res = await fetch(path, { headers: { 'mcp-protocol-version': '2025-11-25' } });
        const reader = res.body!.getReader();
        while (!(await reader.read()).done);
        w.__ended++;
      }
    })();
  }, paths);
}

const ended = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { __ended: number }).__ended);

test('a page streaming 12 MB against a 1 MiB, 10-connection budget: bounded, the drop shown, still responsive', async () => {
  const page = await session.context.newPage();
  await page.goto(`${server.url}/blank.html`);
  const helper = await openExtensionPage(session.context, session.extensionId!);
  const tabId = await findTabId(helper, page.url());
  await helper.close();
  const panel = await session.context.newPage();
  await panel.setViewportSize({ width: 1200, height: 700 });
  await panel.goto(panelUrl(`chrome-extension://${session.extensionId}/`, tabId));
  await expect(panel.locator('[data-testid=empty-state]')).toBeVisible();

  // The budget, set as a user would: the settings form, committed on change.
  await panel.locator('[data-testid=settings]').click();
  await panel.locator('[data-testid=panel-mib]').fill('1');
  await panel.locator('[data-testid=panel-mib]').press('Enter');
  await panel.locator('[data-testid=panel-connections]').fill('10');
  await panel.locator('[data-testid=panel-connections]').press('Enter');
  await panel.keyboard.press('Escape');
  // The worker has it once its summary says so.
  await expect.poll(async () => (await readHeld(panel)).budgetBytes).toBe(1 * MIB);
  await expect.poll(async () => (await readHeld(panel)).budgetConnections).toBe(10);

  // 30 finished streams of about 200 KB, then one of about 6 MB.
  const paths = Array.from({ length: 30 }, (_, i) => `/sse?n=20&gap=0&size=10000&k=${i}`);
  paths.push('/sse?n=300&gap=0&size=20000&k=big');
  await startFlood(page, paths);
  // Read while the flood runs: each reading is within the budget, whatever the panel has got to.
  const readings: Held[] = [];
  for (let done = 0; done < paths.length; done++) {
    // One reading per stream the page finished.
    await expect.poll(() => ended(page)).toBeGreaterThan(done);
    readings.push(await readHeld(panel));
  }
  await page.evaluate(() => (window as unknown as { __flood: Promise<void> }).__flood);
  // Caught up: every stream the page read is held ended or counted as dropped, and the analysis covers it.
  await expect
    .poll(async () => {
      const h = await readHeld(panel);
      return h.analysisCurrent ? h.accounted : -1;
    })
    .toBe(paths.length);
  const final = await readHeld(panel);
  readings.push(final);
  for (const r of readings.filter((x) => Number.isFinite(x.heldBytes))) {
    expect(r.heldBytes).toBeLessThanOrEqual(1 * MIB);
    expect(r.heldConnections).toBeLessThanOrEqual(10);
  }
  expect(final.heldConnections).toBeGreaterThan(0);

  // The drop, with its cause and its count, in the status bar; the gaps on the timeline with their cause.
  const drop = panel.locator('[data-drop=panel-budget]');
  await expect(drop).toContainText("Over the panel's budget");
  await expect(drop).toContainText('connections dropped');
  await expect(drop).toContainText('(shown as gaps)');
  const dropped = Number(await drop.getAttribute('data-dropped-connections'));
  expect(dropped).toBe(paths.length - final.heldConnections);
  await expect(drop).toContainText(`${dropped} connections dropped`);
  await expect(panel.locator('[data-testid=capture-gap][data-cause=panel-budget]')).not.toHaveCount(0);
  // A gap is the budget's, never the server's: only capture-gap infos among the findings.
  const rules = await panel
    .locator('[data-testid=finding]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-rule') ?? ''));
  expect(rules).toContain('capture-gap');
  expect(rules.filter((r) => r !== 'capture-gap')).toEqual([]);

  // Responsive: a click on an event opens its detail, with its data.
  await panel.locator('[data-testid=event-row]').first().click();
  await expect(panel.locator('.detail-head')).toBeVisible();
  await expect(panel.locator('aside.detail')).toContainText('notifications/progress');
  // And what comes next is shown: one more stream, held and accounted for.
  await startFlood(page, ['/sse?n=1&gap=0&size=16&k=after']);
  await expect.poll(() => ended(page)).toBe(1);
  await expect
    .poll(async () => {
      const h = await readHeld(panel);
      return h.analysisCurrent ? h.accounted : -1;
    })
    .toBe(paths.length + 1);
  expect((await readHeld(panel)).heldBytes).toBeLessThanOrEqual(1 * MIB);
  await Promise.all([panel.close(), page.close()]);
});
