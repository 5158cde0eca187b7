// Node (`npm start`): builds the extension, starts the fault lab and opens Chromium with it; `--headless` runs every
// scenario instead and prints a table. Starts browsers only through e2e/launcher.ts; the lab listens on 127.0.0.1.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import type { LabPageApi, LabPageResult } from '../e2e/lab/client/main';
import { exportCapture, openPanelFor, PEER_NAMES, runPeersHeadless } from '../e2e/lab/peers/headless';
import { INTERMEDIARY_NAMES, runIntermediariesHeadless } from '../e2e/lab/nginx/headless';
import { PY_SCENARIO_NAMES, runPythonHeadless } from '../e2e/lab/python/headless';
import { runV2Headless, V2_SCENARIO_NAMES } from '../e2e/lab/v2/headless';
import { guardedCell, runGuarded } from '../e2e/lab/guard/guarded-run';
import { type Scenario, scenarios } from '../e2e/lab/scenarios';
import { type Lab, startLab } from '../e2e/lab/start-lab';
import { panelCaughtUp, readPanelProgress } from '../e2e/fixtures/panel-view';
import { openChromiumToolbox } from '../e2e/fixtures/toolbox-chromium';
import { type ChromiumSession, launchChromium } from '../e2e/launcher';
import type { ConnectionRecord } from '../src/core/capture/model';
import { analyze, parseCapture } from '../src/core/index';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST_CHROME = join(ROOT, 'dist/chrome');
const CAPTURES_DIR = join(ROOT, 'captures');
/** How long to look for the DevTools window and its "MCP Streams" tab. */
const DEVTOOLS_TIMEOUT_MS = 10_000;

/** A wrong command line: reported as one line, without a stack. */
class UsageError extends Error {}

interface Options {
  headless: boolean;
  /** Scenario names to run headless; all when empty. */
  only: string[];
}

interface Row {
  scenario: Scenario;
  /** What the SDK client in the page ended with; undefined when the run itself broke. */
  verdict?: LabPageResult['verdict'];
  /** The same client behind the client guard (src/client-guard/), run in Node: verdict and what the guard did. */
  guarded?: { verdict: string; cell: string };
  panelRules: string[];
  coreRules: string[];
  capture?: string;
  /** Bytes sent before the lab's cut that never reached the page (the browser dropped them): the fault did not land whole. */
  lostBeforeCut?: string;
  broke?: string;
  runMs: number;
  /** From the end of the run until the panel had caught up with the page (see panelCaughtUp). */
  catchUpMs: number;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { headless: false, only: [] };
  const known = new Set([
    ...scenarios.map((s) => s.name as string),
    ...PEER_NAMES,
    ...V2_SCENARIO_NAMES,
    ...PY_SCENARIO_NAMES,
    ...INTERMEDIARY_NAMES,
  ]);
  for (const arg of argv) {
    if (arg === '--headless') options.headless = true;
    else if (known.has(arg)) options.only.push(arg);
    else
      throw new UsageError(
        `unknown argument ${arg}; usage: npm start [-- --headless [scenario...]]\nscenarios: ${[...known].join(', ')}`,
      );
  }
  return options;
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Only dist/chrome is launched, so only the Chrome variant is built (npm run build makes both). */
function buildExtension(): void {
  const started = Date.now();
  const build = spawnSync('npm', ['run', '--silent', 'build:chrome'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) {
    process.stderr.write(`${build.stdout}${build.stderr}`);
    throw new Error(`building the extension failed (npm run build:chrome exited ${String(build.status)})`);
  }
  say(`built the extension into ${relative(ROOT, DIST_CHROME)} (${Date.now() - started} ms)`);
}

function uniqueSorted(rules: Iterable<string>): string[] {
  return [...new Set(rules)].sort();
}

/** The rule ids the panel shows once it holds all the page's fetch saw and has analysed it. */
async function caughtUpPanelRules(panel: Page, page: Page): Promise<string[]> {
  const shown = await panelCaughtUp({
    panel: () => panel.evaluate(readPanelProgress),
    page: () => page.evaluate(() => (window as unknown as { __lab: LabPageApi }).__lab.wire()),
  });
  return uniqueSorted(shown.findings.map((f) => f.rule));
}

async function runScenarioInBrowser(session: ChromiumSession, lab: Lab, scenario: Scenario): Promise<Row> {
  const row: Row = { scenario, panelRules: [], coreRules: [], runMs: 0, catchUpMs: 0 };
  const pageUrl = `${lab.url}/?scenario=${scenario.name}`;
  const page = await session.context.newPage();
  let panel: Page | undefined;
  try {
    await page.goto(pageUrl);
    // The panel is open while the client runs, as a user would watch it.
    panel = await openPanelFor(session, pageUrl);
    const runStarted = Date.now();
    // run() selects the scenario on the proxy first, which starts a fresh origin: nothing leaks between runs.
    const result = await page.evaluate(
      (name) => (window as unknown as { __lab: LabPageApi }).__lab.run(name),
      scenario.name,
    );
    row.verdict = result.verdict;
    row.runMs = Date.now() - runStarted;
    row.panelRules = await caughtUpPanelRules(panel, page);
    row.catchUpMs = Date.now() - runStarted - row.runMs;
    const file = join(CAPTURES_DIR, `${scenario.name}.json`);
    await exportCapture(panel, file);
    row.capture = relative(ROOT, file);
    const capture = parseCapture(readFileSync(file, 'utf8'));
    row.coreRules = uniqueSorted(analyze(capture).findings.map((f) => f.rule));
    row.lostBeforeCut = lostBeforeCut(lab, capture.connections);
  } catch (error) {
    row.broke = error instanceof Error ? error.message.split('\n')[0] : String(error);
  } finally {
    await panel?.close();
    await page.close();
  }
  return row;
}

/** "received/forwarded bytes" when the page got less of the cut response than the proxy sent before cutting it. */
function lostBeforeCut(lab: Lab, connections: ConnectionRecord[]): string | undefined {
  const cut = lab.log().find((entry) => entry.action === 'cut');
  if (!cut) return undefined;
  const record = connections.find((c) => c.method === 'POST' && c.end === 'network-error');
  const received = (record?.chunks ?? []).reduce((sum, chunk) => sum + chunk.bytes.byteLength, 0);
  const forwarded = Number(cut.detail.bytesForwarded);
  return received === forwarded ? undefined : `${received}/${forwarded} bytes`;
}

function expectationNote(row: Row): string {
  const shown = new Set(row.panelRules);
  const missing = row.scenario.expected.must.filter((rule) => !shown.has(rule));
  const unexpected = row.scenario.expected.mustNot.filter((rule) => shown.has(rule));
  const notes = [
    ...(missing.length ? [`missing ${missing.join(', ')}`] : []),
    ...(unexpected.length ? [`unexpected ${unexpected.join(', ')}`] : []),
    ...(row.verdict && row.verdict !== row.scenario.clientVerdict
      ? [`client expected ${row.scenario.clientVerdict}`]
      : []),
  ];
  if (notes.length && row.lostBeforeCut)
    notes.push(`the page got only ${row.lostBeforeCut} sent before the cut: the fault did not land whole`);
  return notes.length ? notes.join('; ') : 'yes';
}

function sameRules(row: Row): boolean {
  return row.panelRules.join(',') === row.coreRules.join(',');
}

function printTable(rows: Row[]): void {
  const lines = rows.map((row) => {
    const guarded = row.guarded?.cell ?? '-';
    if (row.broke) return [row.scenario.name, row.verdict ?? '-', guarded, `BROKE: ${row.broke}`, '', ''];
    const core = sameRules(row) ? 'same' : `MISMATCH: ${row.coreRules.join(', ') || 'none'}`;
    return [
      row.scenario.name,
      row.verdict ?? '-',
      guarded,
      row.panelRules.join(', ') || 'none',
      core,
      expectationNote(row),
    ];
  });
  const header = ['scenario', 'client', 'with guard', 'findings (panel)', 'core analyze', 'as expected'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => (line[column] ?? '').length)),
  );
  const format = (cells: string[]): string =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  say('');
  say(format(header));
  say(format(widths.map((w) => '-'.repeat(w))));
  lines.forEach((line) => say(format(line)));
  say('');
}

async function runHeadless(lab: Lab, only: string[]): Promise<number> {
  const started = Date.now();
  mkdirSync(CAPTURES_DIR, { recursive: true });
  const session = await launchChromium({ extension: DIST_CHROME, headless: true });
  const rows: Row[] = [];
  let violations = 0;
  let peersBroken = 0;
  try {
    // Names of peers or Node scenarios (v2, Python) alone leave the browser scenarios out, and the other way round.
    const others: readonly string[] = [
      ...PEER_NAMES,
      ...V2_SCENARIO_NAMES,
      ...PY_SCENARIO_NAMES,
      ...INTERMEDIARY_NAMES,
    ];
    const browserOnly = only.filter((name) => !others.includes(name));
    const skipBrowser = only.length > 0 && browserOnly.length === 0;
    for (const scenario of scenarios.filter(
      (s) => !skipBrowser && (browserOnly.length === 0 || browserOnly.includes(s.name)),
    )) {
      const row = await runScenarioInBrowser(session, lab, scenario);
      row.guarded = await runGuarded(scenario, lab.url).then(
        (result) => ({ verdict: result.verdict, cell: guardedCell(result) }),
        (error: unknown) => ({
          verdict: 'broke',
          cell: `BROKE: ${error instanceof Error ? error.message : String(error)}`,
        }),
      );
      say(
        `  ${scenario.name}: ${row.broke ? `broke (${row.broke})` : `client ${row.verdict ?? '-'} after ${row.runMs} ms, panel caught up ${row.catchUpMs} ms later, ${row.panelRules.length} rule(s)`}`,
      );
      rows.push(row);
    }
    if (rows.length > 0) printTable(rows);
    // The JS peers in the same browser, after the table; an LLM stream with any MCP finding counts as broken too.
    peersBroken = (await runPeersHeadless(session, lab, only, { capturesDir: CAPTURES_DIR, root: ROOT, say })).filter(
      (outcome) => outcome.problems.length > 0,
    ).length;
  } finally {
    // The launcher prints each attempt; a page that tried a non-loopback host breaks the network rule.
    violations = (await session.close()).violations.length;
  }
  const v2Broken = await runV2Headless(only, CAPTURES_DIR, say);
  const pythonBroken = await runPythonHeadless(only, CAPTURES_DIR, say);
  const intermediariesBroken = await runIntermediariesHeadless(only, CAPTURES_DIR, say);
  say(
    `captures in ${relative(ROOT, CAPTURES_DIR)}/ · ${rows.length} scenario(s) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const broken = rows.filter((row) => row.broke || !sameRules(row));
  if (broken.length)
    say(
      `broken: ${broken.map((row) => row.scenario.name).join(', ')} (a run failed, or the panel and the core disagree)`,
    );
  // With the guard no scenario may hang or break: each continues, or is refused and completes after re-initializing.
  const guardBroken = rows.filter((row) => row.guarded && ['hung', 'corrupted', 'broke'].includes(row.guarded.verdict));
  if (guardBroken.length)
    say(
      `broken with the guard: ${guardBroken.map((row) => `${row.scenario.name} (${row.guarded?.cell ?? ''})`).join(', ')}`,
    );
  if (violations) say(`broken: ${violations} request(s) to non-loopback hosts (see [network rule] above)`);
  if (peersBroken) say(`broken: ${peersBroken} JS peer(s) (see above)`);
  if (v2Broken) say(`broken: ${v2Broken} TS SDK v2 scenario(s) (see above)`);
  if (pythonBroken) say(`broken: ${pythonBroken} Python SDK scenario(s) (see above)`);
  if (intermediariesBroken) say(`broken: ${intermediariesBroken} intermediary run(s) (see above)`);
  return broken.length ||
    guardBroken.length ||
    violations ||
    peersBroken ||
    v2Broken ||
    pythonBroken ||
    intermediariesBroken
    ? 1
    : 0;
}

/** Brings the "MCP Streams" panel to the front of the DevTools window inspecting `pageUrl`. */
async function showStreamsPanel(session: ChromiumSession, pageUrl: string): Promise<boolean> {
  const toolbox = await openChromiumToolbox(session, pageUrl, 'MCP Streams', { timeoutMs: DEVTOOLS_TIMEOUT_MS });
  await toolbox.detach();
  return true;
}

/** Headed: the demo page with DevTools open on the panel; runs until the browser window is closed or Ctrl-C. */
async function runInteractive(lab: Lab): Promise<number> {
  const session = await launchChromium({ extension: DIST_CHROME, headless: false, devtools: true });
  const page = session.context.pages()[0] ?? (await session.context.newPage());
  const pageUrl = `${lab.url}/`;
  await page.goto(pageUrl);
  const shown = await showStreamsPanel(session, pageUrl).catch((error: unknown) => {
    say(`(could not bring the panel to the front: ${error instanceof Error ? error.message : String(error)})`);
    return false;
  });
  const where = shown ? 'DevTools shows the "MCP Streams" panel' : 'in DevTools pick the "MCP Streams" panel';
  say(`Chromium is open on the fault lab (${pageUrl}); ${where}. Run a scenario from the page,`);
  say('or arm a fault in the panel\'s Break menu and call a tool from the page\'s "Break it yourself" box.');
  say('Close the browser or press Ctrl-C to stop.');
  await new Promise<void>((done) => {
    session.context.once('close', () => done());
    process.once('SIGINT', () => done());
    process.once('SIGTERM', () => done());
  });
  await session.close();
  return 0;
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const hasDisplay = Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
  if (!options.headless && !hasDisplay) {
    say(
      'No display here (DISPLAY is not set): running every scenario in headless Chromium instead (npm start -- --headless).',
    );
  }
  buildExtension();
  const lab = await startLab({ build: 'always' });
  say(`fault lab on ${lab.url}/ (MCP endpoint ${lab.url}/mcp)`);
  try {
    return options.headless || !hasDisplay ? await runHeadless(lab, options.only) : await runInteractive(lab);
  } finally {
    await lab.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const text =
      error instanceof UsageError
        ? error.message
        : error instanceof Error
          ? (error.stack ?? error.message)
          : String(error);
    process.stderr.write(`npm start: ${text}\n`);
    process.exitCode = 1;
  },
);
