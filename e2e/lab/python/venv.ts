// Runs in Node (the lab, its tests, `npm start`): the Python SDK peers' virtual environment, owned by the repository.
// Created on first use in e2e/lab/python/.venv (git-ignored) where `python3` exists, with the pinned requirements.txt
// installed by pip; re-installed when requirements.txt changes. Without python3 (or pip) it says why in one line and
// the Python scenarios are skipped with that note; it never fails the caller.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PYTHON_DIR = fileURLToPath(new URL('.', import.meta.url));
const VENV = join(PYTHON_DIR, '.venv');
const REQUIREMENTS = join(PYTHON_DIR, 'requirements.txt');
/** What was installed: the requirements text, so a changed pin installs again. */
const STAMP = join(VENV, 'lab-requirements.txt');
const PYTHON = join(VENV, 'bin', 'python');

/**
 * Set by .ci/run after it created the venv: from then on a missing or broken venv is a failure of the tests that need
 * it, never a skip (a CI run must not pass by skipping the Python peers).
 */
export const REQUIRED_ENV = 'MCP_LAB_PYTHON_REQUIRED';

export type PythonEnv = { ok: true; python: string } | { ok: false; reason: string };

let cached: PythonEnv | undefined;

function run(command: string, args: string[]): { ok: boolean; out: string } {
  // pip talks to the package index: --retries 0 fails fast on an index that is not reachable rather than backing off.
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 300_000 });
  const out = `${result.stderr ?? ''}${result.stdout ?? ''}`.trim();
  return { ok: result.status === 0, out: result.error ? result.error.message : out };
}

const lastLine = (text: string): string =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('WARNING'))
    .pop() ?? text;

function create(): PythonEnv {
  const requirements = readFileSync(REQUIREMENTS, 'utf8');
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === requirements && existsSync(PYTHON))
    return { ok: true, python: PYTHON };
  if (!run('python3', ['--version']).ok)
    return { ok: false, reason: 'python3 not found: the Python SDK scenarios are skipped' };
  if (!existsSync(PYTHON)) {
    const venv = run('python3', ['-m', 'venv', VENV]);
    if (!venv.ok)
      return {
        ok: false,
        reason: `python3 -m venv failed (${lastLine(venv.out)}): the Python SDK scenarios are skipped`,
      };
  }
  const pip = run(PYTHON, ['-m', 'pip', 'install', '--retries', '0', '-q', '-r', REQUIREMENTS]);
  if (!pip.ok)
    return {
      ok: false,
      reason: `pip install -r requirements.txt failed (${lastLine(pip.out)}): the Python SDK scenarios are skipped`,
    };
  writeFileSync(STAMP, requirements);
  return { ok: true, python: PYTHON };
}

/** The venv's python, creating the venv on first use; or the one-line reason why the Python peers cannot run. */
export function pythonEnv(): PythonEnv {
  cached ??= create();
  return cached;
}

/**
 * For tests: the venv, or undefined to skip. Throws when .ci/run said the venv must be there (REQUIRED_ENV), so a
 * CI run where it broke fails instead of passing on skips.
 */
export function pythonForTests(): PythonEnv {
  const env = pythonEnv();
  if (!env.ok && process.env[REQUIRED_ENV] === '1') throw new Error(`${REQUIRED_ENV}=1 but ${env.reason}`);
  return env;
}
