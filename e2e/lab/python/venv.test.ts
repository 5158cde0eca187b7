// Runs in Node (vitest): the venv set-up's answers where it cannot work. The set-up itself runs in every test that
// needs the Python peers (and in .ci/run); these pin the one-line reasons the scenarios are skipped with.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeVenv } from './venv';

const made: string[] = [];
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-venv-'));
  made.push(dir);
  return dir;
};
afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the Python venv set-up', () => {
  it('without python3 it says so in one line, and never throws', () => {
    const env = makeVenv('python3-not-on-this-machine', join(scratch(), 'venv'));
    expect(env).toEqual({
      ok: false,
      reason: 'python3-not-on-this-machine not found: the Python SDK scenarios are skipped',
    });
  });

  it('a python3 whose venv module fails: one line with the reason', () => {
    // A stand-in interpreter that answers --version and fails everything else, as a python3 without venv would.
    const dir = scratch();
    const fake = join(dir, 'python3');
    writeFileSync(fake, '#!/bin/sh\n[ "$1" = "--version" ] && exit 0\necho "No module named venv" >&2\nexit 1\n', {
      mode: 0o755,
    });
    const env = makeVenv(fake, join(dir, 'venv'));
    expect(env.ok).toBe(false);
    expect(env.ok ? '' : env.reason).toBe(
      `${fake} -m venv failed (No module named venv): the Python SDK scenarios are skipped`,
    );
  });
});
