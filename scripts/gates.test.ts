// Node (vitest): the gates of `npm run lint` and `npm run typecheck` catch what they are there to catch. Each kind of
// violation is planted in a throwaway project that carries the repository's own configs; a clean twin must pass.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'node_modules', '.bin');

type Files = Record<string, string>;

interface GateRun {
  code: number;
  output: string;
}

const made: string[] = [];

/** A project in a temp dir with the repository's gate configs and its node_modules (linked, not copied). */
function project(
  files: Files,
  configs: string[] = ['.oxlintrc.json', '.prettierrc.json', 'knip.json', 'tsconfig.json'],
): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gates-'));
  made.push(dir);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const config of configs) cpSync(join(ROOT, config), join(dir, config));
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'planted', type: 'module', private: true }, null, 2)}\n`,
  );
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function run(dir: string, bin: string, args: string[]): GateRun {
  try {
    const output = execFileSync(join(BIN, bin), args, { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
    return { code: 0, output };
  } catch (error) {
    const failed = error as { status?: number; stdout?: string; stderr?: string };
    return { code: failed.status ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

const oxlint = (dir: string): GateRun => run(dir, 'oxlint', ['--type-aware', '--deny-warnings', '-f', 'unix']);

/** Code that every gate accepts: the clean twin of each plant. */
const CLEAN: Files = {
  'src/core/sse/parse.ts': "export function lines(text: string): string[] {\n  return text.split('\\n');\n}\n",
  'src/core/index.ts': "export { lines } from './sse/parse';\n",
  'src/protocol/events.ts': "export const TAP_EVENT = 'tap';\nexport type TapEventName = typeof TAP_EVENT;\n",
  'src/tap/wire.ts':
    "import type { TapEventName } from '../protocol/events';\n\nexport const TAP_EVENT: TapEventName = 'tap';\n",
  'src/bridge/index.ts':
    "import { TAP_EVENT } from '../protocol/events';\nimport { lines } from '../core/index';\n\nexport async function relay(): Promise<string[]> {\n  return lines(TAP_EVENT);\n}\n\nvoid relay();\n",
  'src/panel/Count.tsx':
    "import { useEffect, useState } from 'preact/hooks';\n\nexport function Count({ step }: { step: number }) {\n  const [n, setN] = useState(0);\n  useEffect(() => setN((v) => v + step), [step]);\n  return <b>{n}</b>;\n}\n",
};

/** One file per kind of violation, and the rule whose report proves the gate caught it. */
const LINT_PLANTS: { kind: string; path: string; text: string; rule: string }[] = [
  {
    kind: 'core imports a Node API',
    path: 'src/core/capture/read.ts',
    text: "import { readFileSync } from 'node:fs';\n\nexport const read = readFileSync;\n",
    rule: 'no-restricted-imports',
  },
  {
    kind: 'core imports the panel',
    path: 'src/core/model/view.ts',
    text: "import { Count } from '../../panel/Count';\n\nexport const view = Count;\n",
    rule: 'no-restricted-imports',
  },
  {
    kind: 'tap imports protocol at runtime (types only are allowed)',
    path: 'src/tap/channel.ts',
    text: "import { TAP_EVENT } from '../protocol/events';\n\nexport const name = TAP_EVENT;\n",
    rule: 'no-restricted-imports',
  },
  {
    kind: 'tap imports the core',
    path: 'src/tap/parse.ts',
    text: "import type { lines } from '../core/index';\n\nexport type Lines = typeof lines;\n",
    rule: 'no-restricted-imports',
  },
  {
    kind: 'cli imports the extension platform',
    path: 'src/cli/main.ts',
    text: "import { browser } from '../platform/browser';\n\nexport const b = browser;\n",
    rule: 'no-restricted-imports',
  },
  {
    kind: 'panel imports e2e code',
    path: 'src/panel/launch.ts',
    text: "import { launch } from '../../e2e/launcher';\n\nexport const l = launch;\n",
    rule: 'no-restricted-imports',
  },
  {
    kind: 'background imports the bridge',
    path: 'src/background/router.ts',
    text: "import { relay } from '../bridge/index';\n\nexport const r = relay;\n",
    rule: 'no-restricted-imports',
  },
  {
    kind: 'an import circle',
    path: 'src/core/ids/a.ts',
    text: "import { b } from './b';\n\nexport const a = (): number => b() + 1;\n",
    rule: 'no-cycle',
  },
  {
    kind: 'a floating promise in the bridge',
    path: 'src/bridge/send.ts',
    text: 'export async function send(): Promise<void> {}\n\nexport function later(): void {\n  send();\n}\n',
    rule: 'no-floating-promises',
  },
  {
    kind: 'a hook with a missing dependency',
    path: 'src/panel/Stale.tsx',
    text: "import { useEffect, useState } from 'preact/hooks';\n\nexport function Stale({ step }: { step: number }) {\n  const [n, setN] = useState(0);\n  useEffect(() => setN((v) => v + step), []);\n  return <b>{n}</b>;\n}\n",
    rule: 'exhaustive-deps',
  },
  {
    kind: 'an explicit any',
    path: 'src/protocol/decode.ts',
    text: 'export function decode(value: string): any {\n  return JSON.parse(value);\n}\n',
    rule: 'no-explicit-any',
  },
  {
    kind: 'an empty catch',
    path: 'src/core/capture/safe.ts',
    text: 'export function safe(f: () => void): void {\n  try {\n    f();\n  } catch {}\n}\n',
    rule: 'no-empty',
  },
  {
    kind: 'console noise in production code',
    path: 'src/core/model/log.ts',
    text: "export function log(): void {\n  console.log('hello');\n}\n",
    rule: 'no-console',
  },
];

describe('the lint gate (oxlint)', () => {
  let clean: GateRun;
  let planted: GateRun;

  beforeAll(() => {
    clean = oxlint(project(CLEAN));
    const plants: Files = {
      ...CLEAN,
      'src/core/ids/b.ts': "import { a } from './a';\n\nexport const b = (): number => a() - 1;\n",
    };
    for (const p of LINT_PLANTS) plants[p.path] = p.text;
    plants['e2e/launcher.ts'] = 'export function launch(): void {}\n';
    plants['src/platform/browser.ts'] = 'export const browser = {};\n';
    planted = oxlint(project(plants));
  });

  it('passes the clean project', () => {
    expect(clean.output).toBe('');
    expect(clean.code).toBe(0);
  });

  it('fails the planted project', () => {
    expect(planted.code).not.toBe(0);
  });

  it.each(LINT_PLANTS.map((p) => [p.kind, p]))('catches %s', (_kind, plant) => {
    const reports = planted.output.split('\n').filter((line) => line.startsWith(`${plant.path}:`));
    expect(reports.join('\n')).toContain(plant.rule);
  });
});

describe('the format gate (prettier)', () => {
  const FORMATTED = "export const x = { a: 1, b: 'two' };\n";
  const UNFORMATTED = 'export const x = {a:1,\n   b:"two"}\n';
  /** `prettier --check .` as `npm run lint` runs it, with the repository's ignore file. */
  const checkTree = (files: Files): GateRun =>
    run(project(files, ['.prettierrc.json', '.prettierignore']), 'prettier', ['--check', '.']);

  it('passes a formatted tree, and leaves the recorded fixtures alone', () => {
    const result = checkTree({
      'src/core/x.ts': FORMATTED,
      'fixtures/clean/expected.json': '{"must":[],\n"must_not":[]}',
    });
    expect(result.output).not.toContain('fixtures/clean');
    expect(result.code).toBe(0);
  });

  it.each([['src/core/x.ts'], ['e2e/fixtures/x.ts'], ['scripts/x.ts']])('fails unformatted code in %s', (path) => {
    const result = checkTree({ 'src/core/ok.ts': FORMATTED, [path]: UNFORMATTED });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain(path);
  });
});

describe('the dead-code gate (knip)', () => {
  const knipProject = (extra: Files): string =>
    project({
      ...extra,
      'knip.json': JSON.stringify({ entry: ['src/main.ts'], project: ['src/**/*.ts'] }),
      'src/main.ts': "import { used } from './lib';\n\nused();\n",
    });

  it('passes a project without dead code', () => {
    const dir = knipProject({ 'src/lib.ts': 'export function used(): void {}\n' });
    expect(run(dir, 'knip', ['--no-progress']).code).toBe(0);
  });

  it('fails an unused export and an unused file', () => {
    const dir = knipProject({
      'src/lib.ts': 'export function used(): void {}\nexport function forgotten(): void {}\n',
      'src/orphan.ts': 'export const nobody = 1;\n',
    });
    const result = run(dir, 'knip', ['--no-progress']);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('forgotten');
    expect(result.output).toContain('src/orphan.ts');
  });
});

describe('the pure-core type gate (tsconfig.core.json: no DOM, no Node types)', () => {
  const typecheck = (text: string): GateRun => {
    const core = JSON.parse(readFileSync(join(ROOT, 'tsconfig.core.json'), 'utf8')) as {
      compilerOptions?: Record<string, unknown>;
    };
    const dir = project({ 'src/core/x.ts': text }, ['tsconfig.json', 'tsconfig.core.json']);
    writeFileSync(
      join(dir, 'tsconfig.planted.json'),
      JSON.stringify({
        extends: './tsconfig.core.json',
        compilerOptions: core.compilerOptions ?? {},
        include: ['src/core/x.ts'],
        exclude: [],
      }),
    );
    return run(dir, 'tsc', ['-p', 'tsconfig.planted.json', '--noEmit']);
  };

  it('accepts pure code', () => {
    expect(typecheck("export const words = (s: string): string[] => s.split(' ');\n").code).toBe(0);
  });

  it('rejects the DOM', () => {
    const result = typecheck('export const title = (): string => document.title;\n');
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('document');
  });

  it('rejects Node globals', () => {
    const result = typecheck('export const bytes = (s: string): number => Buffer.byteLength(s);\n');
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('Buffer');
  });
});

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
