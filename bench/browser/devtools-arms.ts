// Node (benches): the arms of devtools-anchor and of its probe (issue 31). Each arm is a fresh browser, through the
// project's launcher, on the bench page: with no DevTools; with a real DevTools window on it (--auto-open-devtools-
// for-tabs) and its Network panel in front; or with the extension loaded and its "MCP Streams" panel in front of that
// DevTools window. DevTools records the network whichever panel is in front (its NetworkManager enables the Network
// domain for the target as DevTools opens): every arm with DevTools checks, in the frontend, the panel in front, the
// Network panel's record button, and the async stack trace setting (preset in the profile's Preferences).
import type { Page } from '@playwright/test';
import type { TargetSession } from '../../e2e/fixtures/cdp-target';
import { CAUSE_WAIT_MS } from '../../e2e/fixtures/patience';
import { openChromiumDevtools, openChromiumToolbox } from '../../e2e/fixtures/toolbox-chromium';
import { openBench, type BenchBrowser } from './browsers';
import { devtoolsPreferences, readDevtools } from './devtools-frontend';
import { inPage } from './in-page';
import { readPanel, type PanelReading } from './panel-probe';
import { readStream } from './page-read';
import { streamQuery, type BenchServer } from './server';
import { checkWhole, SMALL_64MB, type StreamShape } from './streams';

const PANEL_TITLE = 'MCP Streams';
/** Read once before timing in every arm: the page's parser (and the tap, when loaded) are compiled by then. */
export const WARM_UP: StreamShape = { events: 10_000, eventBytes: SMALL_64MB.eventBytes };
/** Half of A (33 MB, 150k events), as panel-attached and tap-throughput's paced case read. */
export const STREAM: StreamShape = { events: SMALL_64MB.events / 2, eventBytes: SMALL_64MB.eventBytes };

export type ArmKey = 'none' | 'devtools' | 'panel' | 'devtools-async-off' | 'panel-async-off';

export interface Arm {
  key: ArmKey;
  label: string;
  devtools: boolean;
  extension: boolean;
  asyncStackTracesOff: boolean;
}

export const ARMS: readonly Arm[] = [
  { key: 'none', label: 'no DevTools', devtools: false, extension: false, asyncStackTracesOff: false },
  { key: 'devtools', label: 'DevTools, Network panel', devtools: true, extension: false, asyncStackTracesOff: false },
  {
    key: 'panel',
    label: 'DevTools + extension, its panel',
    devtools: true,
    extension: true,
    asyncStackTracesOff: false,
  },
  {
    key: 'devtools-async-off',
    label: 'DevTools, Network panel, async off',
    devtools: true,
    extension: false,
    asyncStackTracesOff: true,
  },
  {
    key: 'panel-async-off',
    label: 'DevTools + extension, its panel, async off',
    devtools: true,
    extension: true,
    asyncStackTracesOff: true,
  },
];

/** How long to wait for DevTools to hold a stream's events (its backlog: at load 6, 150k events took over a minute). */
export const CATCH_UP_MS = 180_000;

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** The DevTools window on the bench page, with the arm's panel in front. */
export interface Inspector {
  frontend: TargetSession;
  /** What the extension's panel in DevTools shows, for the arms that have it. */
  panel: (() => Promise<PanelReading>) | null;
  detach(): Promise<void>;
}

/** A fresh browser for `arm`, on the bench page; DevTools (if the arm has it) preset to the arm's settings. */
export function openArm(server: BenchServer, arm: Arm): Promise<BenchBrowser> {
  return openBench(server, arm.extension, {
    devtools: arm.devtools,
    ...(arm.devtools
      ? { preferences: devtoolsPreferences({ panel: 'network', asyncStackTracesOff: arm.asyncStackTracesOff }) }
      : {}),
  });
}

async function attachInspector(bench: BenchBrowser, arm: Arm): Promise<Inspector> {
  const url = bench.page.url();
  if (!arm.extension) {
    const devtools = await openChromiumDevtools(bench.session, url, 'network', Date.now() + CAUSE_WAIT_MS);
    return { frontend: devtools.frontend, panel: null, detach: () => devtools.detach() };
  }
  const toolbox = await openChromiumToolbox(bench.session, url, PANEL_TITLE);
  const source = `(() => { const __name = (f) => f; return (${readPanel.toString()})(); })()`;
  const panel = (): Promise<PanelReading> => toolbox.evaluate<PanelReading>(source);
  // Attached: the status bar names the page's URL, which only the background's answer to the attach tells it.
  const named = `document.querySelector('[data-testid=status-bar]')?.textContent?.includes(${JSON.stringify(url)}) ?? false`;
  const deadline = Date.now() + CAUSE_WAIT_MS;
  while (!(await toolbox.evaluate<boolean>(named))) {
    if (Date.now() > deadline) throw new Error(`the panel in DevTools never named ${url}`);
    await sleep(100);
  }
  return { frontend: toolbox.devtools.frontend, panel, detach: () => toolbox.detach() };
}

/**
 * The arm's DevTools window with its panel in front (null for the arm without DevTools). Throws unless DevTools shows
 * that panel, its Network panel records, and async stack traces are as the arm says.
 */
export async function openInspector(bench: BenchBrowser, arm: Arm): Promise<Inspector | null> {
  if (!arm.devtools) return null;
  const inspector = await attachInspector(bench, arm);
  const state = await readDevtools(inspector.frontend, '/mcp');
  const panel = arm.extension
    ? `chrome-extension://${bench.session.extensionId ?? ''}${PANEL_TITLE.replace(/\s/g, '')}`
    : 'network';
  if (state.selectedPanel !== panel || !state.recording || state.asyncStackTracesOff !== arm.asyncStackTracesOff) {
    await inspector.detach();
    throw new Error(`DevTools is not as the arm ${arm.key} needs: ${JSON.stringify(state)}`);
  }
  return inspector;
}

/**
 * Waits until DevTools' network log has every stream read so far finished, holding `events` events in the latest,
 * and the extension's panel (if any) shows `panelEvents` with a current analysis. Returns the events DevTools holds
 * for the latest stream (0 without DevTools).
 */
export async function caughtUp(
  inspector: Inspector | null,
  events: number,
  panelEvents: number,
  waitMs = CATCH_UP_MS,
): Promise<number> {
  if (!inspector) return 0;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const { streams } = await readDevtools(inspector.frontend, '/mcp');
    const held = streams.at(-1)?.events ?? 0;
    const devtoolsDone = streams.every((s) => s.finished) && held >= events;
    const reading = inspector.panel ? await inspector.panel() : null;
    const panelDone = !reading || (reading.analysisCurrent && (reading.events ?? 0) >= panelEvents);
    if (devtoolsDone && panelDone) return held;
    if (Date.now() > deadline) {
      process.stderr.write(
        `warning: not caught up within ${waitMs / 1000} s: DevTools holds ${held}/${events} events` +
          `${reading ? `, the panel shows ${reading.events ?? 0}/${panelEvents}` : ''}\n`,
      );
      return held;
    }
    await sleep(100);
  }
}

/** The page reads `shape` (paced at `pace` MB/s, 0 = full speed), checked whole; MB/s from fetch() to body done. */
export async function readMBs(page: Page, shape: StreamShape, pace: number): Promise<number> {
  const read = await inPage(page, readStream, { path: streamQuery(shape, pace), stopAfterFirst: false });
  checkWhole(read, shape);
  return read.bytes / 1e6 / (read.totalMs / 1000);
}
