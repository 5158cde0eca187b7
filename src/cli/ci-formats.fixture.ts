// Test fixture (Node tests only): runs the CLI in-process on the recorded fixtures and on scratch files,
// for the tests of the CLI and its formats.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { fixtureDir } from '../core/fixtures-dir.fixture';
import { nodeIo } from './node-io';
import type { CliIo } from './io';
import { run } from './run';

/** A recording with an error, a warning and info findings (a resume refused with 404). */
export const refused = join(fixtureDir('resume-404'), 'capture.har');
export const torn = join(fixtureDir('cut-mid-event'), 'capture.har');
export const tornChunks = join(fixtureDir('cut-mid-event'), 'chunks.ndjson');
export const clean = join(fixtureDir('clean'), 'capture.har');

/** A scratch folder for the calling test file, removed after it. */
export function scratchFolder(): (name: string, content: string | Uint8Array) => string {
  const dir = mkdtempSync(join(tmpdir(), 'msi-ci-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return (name, content) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
}

/** A raw stream saved with `curl -i -N`: a head of 3 lines, then an event whose JSON is cut (incomplete-json). */
export const RAW_WITH_HEAD =
  'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n' +
  'id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}\n\n';

export interface Captured {
  io: CliIo;
  out: () => string;
  err: () => string;
}

/** The real Node io (files, doc paths, version) with stdout and stderr captured. */
export function captureIo(color = false): Captured {
  let out = '';
  let err = '';
  const io: CliIo = {
    ...nodeIo(),
    readFile: (path) => readFile(path),
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    color,
  };
  return { io, out: () => out, err: () => err };
}

/** The CLI run in-process with {@link captureIo}. */
export async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const c = captureIo();
  const code = await run(argv, c.io);
  return { code, out: c.out(), err: c.err() };
}
