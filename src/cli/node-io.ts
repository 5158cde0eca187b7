// Runs in Node (CLI): the real CliIo over node:fs and node:process; the only file here that touches them.
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { open, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import type { RangeReader, ScratchFile } from './file-chunks';
import type { CliIo } from './io';
import { wantsColor } from './style';

/**
 * The package root: the nearest folder above this module whose package.json is ours. This module runs
 * from src/cli (tsx, vitest) or bundled somewhere under dist/node, so the doc pages and the version
 * resolve the same way in the repository and once installed.
 */
export function packageRoot(moduleUrl: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && readManifest(manifest).name === PACKAGE_NAME) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package above ${fileURLToPath(moduleUrl)}`);
    dir = parent;
  }
}

const PACKAGE_NAME = 'mcp-stream-inspector';

function readManifest(path: string): { name?: unknown; version?: unknown } {
  const manifest: unknown = JSON.parse(readFileSync(path, 'utf8'));
  return typeof manifest === 'object' && manifest !== null ? manifest : {};
}

export function nodeIo(): CliIo {
  const root = packageRoot();
  return {
    readFile: (path) => (path === '-' ? readStdin() : readFile(path)),
    readPieces: (path) => (path === '-' ? stdinPieces() : filePieces(path)),
    openRanges: (path) => (path === '-' ? undefined : fileRanges(path)),
    openScratch: scratchFile,
    fileSize: async (path) => {
      if (path === '-') return undefined;
      const info = await stat(path);
      return info.isFile() ? info.size : undefined;
    },
    ...(process.stderr.isTTY && {
      progress: {
        get columns() {
          return process.stderr.columns || 80;
        },
        write: (text: string) => void process.stderr.write(text),
        now: () => performance.now(),
      },
    }),
    stdout: (text) => {
      process.stdout.write(text);
    },
    stderr: (text) => {
      process.stderr.write(text);
    },
    color: wantsColor(process.stdout.isTTY, process.env),
    docPath: (ruleId) => join(root, 'src', 'core', 'guard', 'rules', `${ruleId}.md`),
    version: packageVersion(root),
    writeFile: (path, text) => writeFile(path, text),
    untilStopped: () =>
      new Promise((resolve) => {
        const stop = (signal: NodeJS.Signals): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve(signal);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      }),
  };
}

function packageVersion(root: string): string {
  const { version } = readManifest(join(root, 'package.json'));
  return typeof version === 'string' ? version : 'unknown';
}

async function readStdin(): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of process.stdin) parts.push(chunk as Uint8Array);
  return Buffer.concat(parts);
}

/**
 * The size of each read: big enough that a read's cost vanishes, small enough that a held piece costs little. Each
 * piece is a fresh buffer (a raw stream's chunks are its pieces): 1 MiB ones cost the CLI ~8% more CPU than 256 KiB
 * ones here on cli-raw-mixed's input, 4% on cli-raw-200mb's (alternated runs), fresh memory being dear on this machine.
 */
const PIECE_BYTES = 256 * 1024;

async function* filePieces(path: string): AsyncGenerator<Uint8Array> {
  const file = await open(path, 'r');
  // A fresh buffer each time: a raw stream keeps its pieces as the body's chunks.
  const readAt = async (at: number): Promise<{ at: number; piece: Uint8Array }> => {
    const buffer = Buffer.allocUnsafeSlow(PIECE_BYTES);
    const { bytesRead } = await file.read(buffer, 0, PIECE_BYTES, at);
    return { at, piece: bytesRead === PIECE_BYTES ? buffer : buffer.subarray(0, bytesRead) };
  };
  // The next piece is read while this one is handled: the disk and the parser work at the same time.
  let next = readAt(0);
  try {
    for (;;) {
      const { at, piece } = await next;
      if (piece.length === 0) return;
      if (piece.length === PIECE_BYTES) next = readAt(at + PIECE_BYTES);
      else next = readAt(at + piece.length); // a short read: go on from where it stopped
      yield piece;
    }
  } finally {
    // A read still under way (the reader stopped early) settles before the file is closed.
    await next.catch(() => undefined);
    await file.close();
  }
}

/** A regular file held open for reads at any offset; undefined when it is not one or cannot be opened. */
function fileRanges(path: string): RangeReader | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined; // readPieces reports why
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    return undefined;
  }
  return readerOf(fd);
}

/** Synchronous reads of ranges of an open file; closing closes the fd. */
function readerOf(fd: number): RangeReader {
  return {
    read(offset, length) {
      const buffer = Buffer.allocUnsafe(length);
      let at = 0;
      while (at < length) {
        const read = readSync(fd, buffer, at, length - at, offset + at);
        if (read === 0) break;
        at += read;
      }
      return at === length ? buffer : buffer.subarray(0, at);
    },
    close: () => closeSync(fd),
  };
}

/** A file in the system's temporary folder, unlinked at once where an open file may be (it lives on by its fd). */
function scratchFile(): ScratchFile | undefined {
  let dir: string;
  let fd: number;
  try {
    dir = mkdtempSync(join(tmpdir(), 'mcp-stream-inspector-'));
    fd = openSync(join(dir, 'bodies'), 'w+');
  } catch {
    return undefined; // bodies then stay in memory
  }
  let removed = false;
  const remove = (): void => {
    if (removed) return;
    try {
      rmSync(dir, { recursive: true, force: true });
      removed = true;
    } catch {
      // Windows: not while open; tried again on close.
    }
  };
  remove();
  const ranges = readerOf(fd);
  let size = 0;
  return {
    append(bytes) {
      const at = size;
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written, at + written);
      size += bytes.length;
      return at;
    },
    read: ranges.read,
    close() {
      ranges.close();
      remove();
    },
  };
}

async function* stdinPieces(): AsyncGenerator<Uint8Array> {
  for await (const chunk of process.stdin) yield chunk as Uint8Array;
}
