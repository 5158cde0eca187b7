// Node (dev script, optional): records fixtures/mcp-inspector.capture.json, the MCP Inspector 2.x web UI as the
// product's Playwright recorder sees it: the UI's page in Chromium (through e2e/launcher.ts, loopback black hole) talks
// to the Inspector's backend on 127.0.0.1, and the backend runs the MCP client in Node against the lab's SDK server.
// The page never sees MCP bytes: only the backend's reports on `/api/mcp/events` (docs/relayed-traffic.md).
// The Inspector is not a dependency (112 MB): install it first, then run under the browser lock:
//   npm install --no-save @modelcontextprotocol/inspector@2
//   flock /tmp/browser.lock npm run fixtures:inspector [-- --scenario <lab scenario>] [--out dir]
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';
import { analyze } from '../../../src/core/analyze';
import { serializeCapture } from '../../../src/core/capture/format';
import { ContextRecorder } from '../../../src/playwright/recorder';
import { launchChromium } from '../../launcher';
import { streamProgressText } from '../payload';
import type { ScenarioName } from '../scenarios';
import { startLab } from '../start-lab';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Fixed ports keep the URLs in the recording stable from one run to the next. */
const LAB_PORT = 47394;
const INSPECTOR_PORT = 47396;
const SANDBOX_PORT = 47397;
/** Progress notifications of the `stream_progress` call: enough for a lab fault to strike in the middle. */
const COUNT = 5;

/** The Playwright fixture's init script (the tap and its receiver), built as vite.node.config.ts builds it. */
async function initScript(): Promise<string> {
  const output = await build({
    configFile: false,
    publicDir: false,
    logLevel: 'warn',
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      rolldownOptions: { input: join(ROOT, 'src/playwright/page/init-script.ts'), output: { format: 'iife' } },
    },
  });
  const chunks = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
  const code = chunks.flatMap((o) => o.output).find((o) => o.type === 'chunk')?.code;
  if (!code) throw new Error('the init script build gave no chunk');
  return code;
}

/** Starts the Inspector's web UI and backend on 127.0.0.1; resolves to the UI's URL (with its API token). */
function startInspector(serverUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const require = createRequire(join(ROOT, 'package.json'));
  let pkg: string;
  try {
    pkg = dirname(require.resolve('@modelcontextprotocol/inspector/package.json'));
  } catch {
    throw new Error('install the Inspector first: npm install --no-save @modelcontextprotocol/inspector@2');
  }
  const child = spawn(
    process.execPath,
    [join(pkg, 'clients/launcher/build/index.js'), '--web', '--transport', 'http', '--server-url', serverUrl],
    {
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        CLIENT_PORT: String(INSPECTOR_PORT),
        MCP_SANDBOX_PORT: String(SANDBOX_PORT),
        MCP_AUTO_OPEN_ENABLED: 'false',
        MCP_INSPECTOR_SECRET_STORE: 'memory',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((done, fail) => {
    let out = '';
    child.on('exit', (code) => fail(new Error(`the Inspector exited (${code}): ${out}`)));
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      const url = /(http:\/\/127\.0\.0\.1:\d+\?MCP_INSPECTOR_API_TOKEN=\w+)/.exec(out)?.[1];
      if (url) done({ url, child });
    });
  });
}

async function main(): Promise<void> {
  const arg = (name: string) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const outDir = resolve(arg('--out') ?? join(ROOT, 'fixtures'));
  const scenario = (arg('--scenario') ?? 'clean') as ScenarioName;
  const lab = await startLab({ port: LAB_PORT, scenario });
  const inspector = await startInspector(`${lab.url}/mcp`).catch(async (error: unknown) => {
    await lab.close();
    throw error;
  });
  const chromium = await launchChromium();
  try {
    // The UI asks Google Fonts for its typefaces: refused in the browser, so not even the black hole sees it.
    await chromium.context.route(/^https?:\/\/(?!127\.0\.0\.1[:/]|localhost[:/])/, (route) => route.abort());
    const recorder = await ContextRecorder.start(chromium.context, {
      initScript: await initScript(),
      toolVersion: 'recorder',
      revealSecrets: false,
    });
    const page = await chromium.context.newPage();
    await page.goto(inspector.url);
    // Connect (initialize, the GET stream), then the Tools tab (tools/list).
    await page.getByRole('switch').first().check({ force: true });
    await page.getByText('Connected', { exact: true }).waitFor();
    await page.getByText('Tools', { exact: true }).first().click();
    // tools/call stream_progress: five progress notifications on its POST stream, then the result.
    await page.getByText('stream_progress').first().click();
    await page.getByLabel('count').fill(String(COUNT));
    await page.getByLabel('delayMs').fill('20');
    await page.getByRole('button', { name: 'Execute Tool' }).click();
    await page
      .getByText(streamProgressText({ count: COUNT, delayMs: 20 }))
      .first()
      .waitFor();
    await page.waitForTimeout(1_000);
    const capture = await recorder.capture(page);
    await recorder.stop();
    const analysis = analyze(capture);
    mkdirSync(outDir, { recursive: true });
    // A file, not a fixture folder: those hold the lab proxy's HAR + chunks.ndjson, which a relay's page has no use for.
    const file = join(
      outDir,
      scenario === 'clean' ? 'mcp-inspector.capture.json' : `mcp-inspector-${scenario}.capture.json`,
    );
    writeFileSync(file, serializeCapture(capture));
    const sessions = analysis.sessions.map((s) => `${s.sessionId ?? s.key} ${s.era}${s.relayed ? ' relayed' : ''}`);
    process.stdout.write(`wrote ${file}\n  sessions: ${sessions.join(', ')}\n`);
    for (const f of analysis.findings) process.stdout.write(`  ${f.severity} ${f.rule}: ${f.message}\n`);
  } finally {
    await chromium.close();
    inspector.child.kill();
    await lab.close();
  }
}

await main();
