// Node (Playwright runner, puppeteer-core over WebDriver BiDi): in Firefox ESR the page sees exactly what it would
// see without the extension. Two Firefoxes, one with the built extension; the same seeded cases as in Chromium.
import { expect, test } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import { DIST_FIREFOX } from './fixtures/extension';
import { startFixtureServer, type FixtureServer } from './fixtures/sse-server';
import {
  TRANSPARENCY_SEED,
  readCases,
  runPatchCase,
  runReadCase,
  runRequestCase,
  runStackCase,
} from './fixtures/transparency-cases';
import { launchFirefox, type FirefoxSession } from './launcher';

let server: FixtureServer;
let plain: FirefoxSession;
let tapped: FirefoxSession;

test.beforeAll(async () => {
  server = await startFixtureServer();
  [plain, tapped] = await Promise.all([launchFirefox(), launchFirefox({ extension: DIST_FIREFOX })]);
});

test.afterAll(async () => {
  const reports = await Promise.all([plain?.close(), tapped?.close()]);
  await server.close();
  expect(reports.flatMap((r) => r?.violations ?? [])).toEqual([]);
});

async function blankPage(session: FirefoxSession): Promise<Page> {
  const page = await session.browser.newPage();
  await page.goto(`${server.url}/blank.html`);
  return page;
}

/** Runs `fn` in a fresh page of both browsers; returns [without extension, with extension]. */
async function both<T, A>(fn: (arg: A) => Promise<T>, arg: A): Promise<[T, T]> {
  const pages = await Promise.all([blankPage(plain), blankPage(tapped)]);
  try {
    const results = await Promise.all(
      pages.map((p) => p.evaluate(fn as (a: unknown) => Promise<unknown>, arg as unknown)),
    );
    return [results[0] as T, results[1] as T];
  } finally {
    await Promise.all(pages.map((p) => p.close()));
  }
}

for (const c of readCases(TRANSPARENCY_SEED, 'firefox')) {
  test(`Firefox, seed ${TRANSPARENCY_SEED}: ${c.mode} gives the native values, errors and bodyUsed on every path`, async () => {
    const [without, withTap] = await both(runReadCase, c);
    expect(withTap).toEqual(without);
    expect(without['abort']).toContain('AbortError');
    expect(without['cut']).toContain('TypeError');
  });
}

test('Firefox: the request is read once, as by the native fetch: getters, toString and a one-shot headers iterator', async () => {
  const [without, withTap] = await both(runRequestCase, null);
  expect(withTap).toEqual(without);
  expect(without.session).toBe('session-13');
});

test('Firefox: page patches of addEventListener, close and Response.prototype.text see the calls and objects they would natively', async () => {
  const [without, withTap] = await both(runPatchCase, null);
  expect(withTap).toEqual(without);
  expect(without.seen).toContain('text on the page Response');
});

test('Firefox: errors that reach the page carry no extension URL in their stacks', async () => {
  const [without, withTap] = await both(runStackCase, null);
  expect(withTap).toHaveLength(without.length);
  for (const stack of withTap) expect(stack).not.toContain('moz-extension://');
});
