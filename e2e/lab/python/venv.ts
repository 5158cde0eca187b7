// Runs in Node (the lab, its tests, `npm start`): the Python SDK peers' virtual environment, owned by the repository.
// Created on first use in e2e/lab/python/.venv (git-ignored) where `python3` exists, with the pinned requirements.txt
// installed by pip; re-installed when requirements.txt changes. Without python3 (or pip) it says why in one line and
// the Python scenarios are skipped with that note; it never fails the caller.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PYTHON_DIR = fileURLToPath(new URL('.', import.meta.url));
const VENV = join(PYTHON_DIR, '.venv');
const REQUIREMENTS = join(PYTHON_DIR, 'requirements.txt');

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

/** Makes (or reuses) the venv at `venv` with `python3`, the interpreter command to make it with. */
export function makeVenv(python3: string, venv: string): PythonEnv {
  const requirements = readFileSync(REQUIREMENTS, 'utf8');
  // What was installed: the requirements text, so a changed pin installs again.
  const stamp = join(venv, 'lab-requirements.txt');
  const python = join(venv, 'bin', 'python');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === requirements && existsSync(python))
    return { ok: true, python };
  if (!run(python3, ['--version']).ok)
    return { ok: false, reason: `${python3} not found: the Python SDK scenarios are skipped` };
  if (!existsSync(python)) {
    const made = run(python3, ['-m', 'venv', venv]);
    if (!made.ok)
      return {
        ok: false,
        reason: `${python3} -m venv failed (${lastLine(made.out)}): the Python SDK scenarios are skipped`,
      };
  }
  const pip = run(python, ['-m', 'pip', 'install', '--retries', '0', '-q', '-r', REQUIREMENTS]);
  if (!pip.ok)
    return {
      ok: false,
      reason: `pip install -r requirements.txt failed (${lastLine(pip.out)}): the Python SDK scenarios are skipped`,
    };
  writeFileSync(stamp, requirements);
  return { ok: true, python };
}

/** How long to wait for another process making the venv (vitest runs test files in parallel workers). */
const LOCK_WAIT_MS = 300_000;
const LOCK_POLL_MS = 100;

/** Runs `make` with the venv's lock held: one process makes the venv, the others then find it made. */
function withLock<T>(make: () => T): T {
  const lock = join(PYTHON_DIR, '.venv.lock');
  for (let waited = 0; waited < LOCK_WAIT_MS; waited += LOCK_POLL_MS) {
    try {
      closeSync(openSync(lock, 'wx'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, LOCK_POLL_MS);
      continue;
    }
    try {
      return make();
    } finally {
      rmSync(lock, { force: true });
    }
  }
  return make(); // a lock left by a process that died: go on without it
}

/** The venv's python, creating the venv on first use; or the one-line reason why the Python peers cannot run. */
export function pythonEnv(): PythonEnv {
  cached ??= withLock(() => makeVenv('python3', VENV));
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
