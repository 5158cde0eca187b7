// Node (dev script, `npm run fixtures`): records the committed fixtures/<scenario>/ folders. Starts the lab,
// runs each scenario with the real SDK client in the demo page in Chromium (through e2e/launcher.ts, without the
// extension), and writes what the lab proxy delivered: capture.har, chunks.ndjson, expected.json.
// CLI: npm run fixtures [-- scenario... [--out dir] [--port N]]   (run browsers under `flock /tmp/browser.lock`)
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { analyze } from '../../src/core/analyze';
import { importHar } from '../../src/core/capture/har';
import { rules } from '../../src/core/guard/index';
import { launchChromium } from '../launcher';
import type { LabPageResult } from './client/main';
import { WireRecorder } from './proxy/wire-recorder';
import {
  findScenario,
  LAB_CLIENT_NAMES,
  type Scenario,
  type ScenarioName,
  scenarioNames,
  type ScenarioVariant,
} from './scenarios';
import { startLab } from './start-lab';
import { toChunksNdjson, toHar, type WireRecording } from './wire-har';
import { writeFixture } from './fixture-files';

const here = dirname(fileURLToPath(import.meta.url));
export const FIXTURES_DIR = resolve(here, '../../fixtures');
/** A fixed port keeps URLs, Host and Origin headers the same from one recording to the next. */
const DEFAULT_PORT = 47193;
const ATTEMPTS = 3;
const SETTLE_MS = 5000;

/** What is recorded, and how. The 1 MiB results are cut down so each fixture stays small. */
interface FixturePlan {
  scenario: ScenarioName;
  variant?: ScenarioVariant;
  /** Rules that must not show up besides the scenario's own list, and why. */
  alsoMustNot: string[];
}

/** Rules of the stateless era: never for a 2025 (or 2024) session. */
const STATELESS = rules.filter((r) => r.eras?.length === 1 && r.eras[0] === '2026-07-28').map((r) => r.id);
/** The client got every answer it asked for: nothing was left unanswered. */
const ANSWERED = ['unanswered-after-disconnect', ...STATELESS];

export const FIXTURE_PLANS: readonly FixturePlan[] = [
  { scenario: 'clean', variant: { bigResultBytes: 64 * 1024 }, alsoMustNot: ANSWERED },
  { scenario: 'cut-mid-event', alsoMustNot: ANSWERED },
  { scenario: 'replay-boundary', alsoMustNot: [...ANSWERED, 'resume-id-gap', 'unsolicited-response'] },
  { scenario: 'epoch-restart-clamp', alsoMustNot: [...STATELESS, 'resumption-rejected', 'orphaned-server-request'] },
  { scenario: 'epoch-restart-fresh', alsoMustNot: [...STATELESS, 'resumption-rejected', 'orphaned-server-request'] },
  { scenario: 'skip-on-resume', alsoMustNot: [...ANSWERED, 'resume-not-honored', 'orphaned-server-request'] },
  { scenario: 'resume-409', alsoMustNot: [...STATELESS, 'orphaned-server-request'] },
  { scenario: 'resume-404', alsoMustNot: [...STATELESS, 'orphaned-server-request'] },
  { scenario: 'orphaned-elicitation', alsoMustNot: [...STATELESS, 'resume-id-gap', 'replayed-event-duplicate'] },
  { scenario: 'legacy-sse', alsoMustNot: ANSWERED },
  { scenario: 'resume-after-error', alsoMustNot: ANSWERED },
  { scenario: 'server-close-resumed', alsoMustNot: ANSWERED },
  { scenario: 'server-close-not-resumed', alsoMustNot: [...STATELESS, 'post-stream-not-resumed'] },
  { scenario: 'ai-sdk-close-not-resumed', alsoMustNot: [...STATELESS, 'unanswered-after-disconnect', 'retry-ignored'] },
];

export interface Expected {
  must: string[];
  must_not: string[];
  notes: string;
}

export function expectedFor(scenario: Scenario, plan: FixturePlan, applied: string[]): Expected {
  const must = [...scenario.expected.must];
  const mustNot = [...new Set([...scenario.expected.mustNot, ...plan.alsoMustNot])].filter((id) => !must.includes(id));
  const variant =
    plan.variant?.bigResultBytes !== undefined
      ? ` Recorded with big_result capped at ${plan.variant.bigResultBytes} bytes.`
      : '';
  const faults = applied.length > 0 ? ` The proxy applied: ${applied.join(', ')}.` : ' The proxy applied no fault.';
  return {
    must,
    must_not: mustNot,
    notes: `${scenario.title}: ${scenario.description}${variant}${faults} The ${LAB_CLIENT_NAMES[scenario.client ?? 'sdk']} client in Chromium ended ${scenario.clientVerdict}.`,
  };
}

interface Recorded {
  har: string;
  ndjson: string;
  expected: Expected;
}

/** Why a recording is not fit to keep, or undefined when it is. */
function problemWith(scenario: Scenario, result: LabPageResult, recorded: Recorded): string | undefined {
  if (result.verdict !== scenario.clientVerdict)
    return `the client ended ${result.verdict} (${result.detail}), expected ${scenario.clientVerdict}`;
  const capture = importHar(recorded.har, { chunksNdjson: recorded.ndjson });
  const rules = new Set(analyze(capture).findings.map((f) => f.rule));
  const missing = recorded.expected.must.filter((id) => !rules.has(id));
  const unexpected = recorded.expected.must_not.filter((id) => rules.has(id));
  if (missing.length || unexpected.length)
    return `findings ${[...rules].join(', ') || 'none'}: missing [${missing.join(', ')}], unexpected [${unexpected.join(', ')}]`;
  return undefined;
}

async function recordOnce(
  page: Page,
  recorder: WireRecorder,
  pageUrl: string,
  plan: FixturePlan,
): Promise<{ result: LabPageResult; recorded: Recorded }> {
  recorder.reset();
  const result = await page.evaluate(([name, variant]) => window.__lab.run(name, variant), [
    plan.scenario,
    plan.variant ?? {},
  ] as const);
  if (!(await recorder.settled(SETTLE_MS)))
    process.stdout.write(`  (some streams were still open after ${SETTLE_MS} ms: recorded as open)\n`);
  const recording: WireRecording = { startedAt: recorder.startedAt, pageUrl, exchanges: recorder.exchanges() };
  const scenario = findScenario(plan.scenario) as Scenario;
  // Action names only: the log's details carry ids that change with every recording.
  const applied = [...new Set(result.applied.map((line) => line.split(' ')[0] ?? line))];
  return {
    result,
    recorded: {
      har: toHar(recording),
      ndjson: toChunksNdjson(recording),
      expected: expectedFor(scenario, plan, applied),
    },
  };
}

interface Args {
  names: ScenarioName[];
  outDir: string;
  port: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { names: [], outDir: FIXTURES_DIR, port: DEFAULT_PORT };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--out' || arg === '--port') {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      if (arg === '--out') args.outDir = resolve(value);
      else args.port = Number(value);
    } else if ((scenarioNames as readonly string[]).includes(arg) && FIXTURE_PLANS.some((p) => p.scenario === arg)) {
      args.names.push(arg as ScenarioName);
    } else {
      throw new Error(`unknown argument ${arg}; fixtures: ${FIXTURE_PLANS.map((p) => p.scenario).join(', ')}`);
    }
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const plans = FIXTURE_PLANS.filter((p) => args.names.length === 0 || args.names.includes(p.scenario));
  mkdirSync(args.outDir, { recursive: true });
  const pageDir = mkdtempSync(join(tmpdir(), 'mcp-lab-page-'));
  const recorder = new WireRecorder();
  const lab = await startLab({ build: 'always', pageDir, recorder, port: args.port }).catch((error: unknown) => {
    process.stdout.write(
      `port ${args.port} unavailable (${error instanceof Error ? error.message : String(error)}); using a free one\n`,
    );
    return startLab({ build: 'never', pageDir, recorder });
  });
  const session = await launchChromium();
  let failed = 0;
  try {
    const page = await session.context.newPage();
    const pageUrl = `${lab.url}/`;
    await page.goto(pageUrl);
    await page.waitForFunction(() => typeof window.__lab?.run === 'function');
    for (const plan of plans) {
      const scenario = findScenario(plan.scenario) as Scenario;
      let problem: string | undefined = 'not recorded';
      for (let attempt = 1; attempt <= ATTEMPTS && problem !== undefined; attempt++) {
        const { result, recorded } = await recordOnce(page, recorder, pageUrl, plan);
        problem = problemWith(scenario, result, recorded);
        if (problem === undefined) {
          writeFixture(args.outDir, plan.scenario, recorded);
          const kb = (Buffer.byteLength(recorded.har) / 1024).toFixed(1);
          process.stdout.write(
            `ok   ${plan.scenario.padEnd(22)} ${recorder.exchanges().length} exchanges, capture.har ${kb} KiB, client ${result.verdict}\n`,
          );
        } else {
          process.stdout.write(`retry ${plan.scenario} (attempt ${attempt}/${ATTEMPTS}): ${problem}\n`);
        }
      }
      if (problem !== undefined) {
        failed += 1;
        process.stdout.write(`FAIL ${plan.scenario}: kept the previous fixture\n`);
      }
    }
  } finally {
    const report = await session.close();
    await lab.close();
    rmSync(pageDir, { recursive: true, force: true });
    if (report.violations.length > 0) {
      failed += 1;
      process.stdout.write(`network rule violated: ${report.violations.join('; ')}\n`);
    }
  }
  process.exitCode = failed > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
