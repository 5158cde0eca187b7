// Runs in Node: starts the fault lab (origin instance(s) + fault proxy + demo page) on 127.0.0.1.
// CLI: npx tsx e2e/lab/start-lab.ts [--port N] [--scenario name] [--no-build]
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type LabLogEntry } from './proxy/fault-run';
import { startProxy } from './proxy/proxy';
import type { WireRecorder } from './proxy/wire-recorder';
import { type Scenario, type ScenarioName, scenarioNames } from './scenarios';
import { Backend } from './server/backend';

const here = dirname(fileURLToPath(import.meta.url));
export const LAB_PAGE_DIR = resolve(here, '../../dist/lab');
const LAB_VITE_CONFIG = join(here, 'vite.lab.config.ts');

export interface LabOptions {
  /** Port of the proxy (the lab's one URL); 0 or absent picks a free one. */
  port?: number;
  scenario?: ScenarioName;
  /** Build the demo page: 'always', 'if-missing' (default), or 'never' (tests that need no page). */
  build?: 'always' | 'if-missing' | 'never';
  /** Where the demo page is built and served from; dist/lab by default. */
  pageDir?: string;
  /** Records what the proxy delivered for every MCP exchange (npm run fixtures). */
  recorder?: WireRecorder;
}

export interface Lab {
  /** The demo page and the MCP endpoint (`${url}/mcp`), same origin. */
  url: string;
  setScenario(name: ScenarioName): Promise<Scenario>;
  scenario(): Scenario;
  /** The faults the proxy applied since the scenario was last set. */
  log(): LabLogEntry[];
  close(): Promise<void>;
}

/** Builds the demo page with vite (the SDK bundled for the browser); ~1 s. */
export async function buildLabPage(outDir: string = LAB_PAGE_DIR): Promise<string> {
  const { build } = await import('vite');
  await build({ configFile: LAB_VITE_CONFIG, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  return outDir;
}

export async function startLab(options: LabOptions = {}): Promise<Lab> {
  const mode = options.build ?? 'if-missing';
  const pageDir = options.pageDir ?? LAB_PAGE_DIR;
  if (mode === 'always' || (mode === 'if-missing' && !existsSync(join(pageDir, 'index.html'))))
    await buildLabPage(pageDir);
  const backend = new Backend();
  const proxy = await startProxy({
    port: options.port,
    backend,
    staticDir: pageDir,
    scenario: options.scenario ?? 'clean',
    ...(options.recorder ? { recorder: options.recorder } : {}),
  });
  try {
    await proxy.setScenario(options.scenario ?? 'clean');
  } catch (error) {
    await proxy.close();
    await backend.close();
    throw error;
  }
  return {
    url: proxy.url,
    setScenario: (name) => proxy.setScenario(name),
    scenario: () => proxy.scenario,
    log: () => proxy.log(),
    close: async () => {
      await proxy.close();
      await backend.close();
    },
  };
}

function parseArgs(argv: string[]): LabOptions {
  const options: LabOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = argv[i + 1];
    if (arg === '--port' && value) {
      options.port = Number(value);
      i++;
    } else if (arg === '--scenario' && value) {
      if (!(scenarioNames as readonly string[]).includes(value))
        throw new Error(`unknown scenario ${value}; known: ${scenarioNames.join(', ')}`);
      options.scenario = value as ScenarioName;
      i++;
    } else if (arg === '--no-build') {
      options.build = 'never';
    } else if (arg === '--build') {
      options.build = 'always';
    } else {
      throw new Error(`unknown argument ${arg}; usage: start-lab.ts [--port N] [--scenario name] [--build|--no-build]`);
    }
  }
  return options;
}

async function main(): Promise<void> {
  const lab = await startLab({ build: 'always', ...parseArgs(process.argv.slice(2)) });
  process.stdout.write(`MCP fault lab: ${lab.url}/  (MCP endpoint ${lab.url}/mcp, scenario ${lab.scenario().name})\n`);
  const stop = (): void => {
    lab.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
