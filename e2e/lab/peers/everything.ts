// Runs in Node (tests, the lab): the reference MCP server `@modelcontextprotocol/server-everything`, Streamable
// HTTP with its own in-memory event store, as a child process on a free loopback port (the package binds every
// interface on its own; loopback-only.mjs keeps it on 127.0.0.1). Another real server than the lab's.
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface EverythingServer {
  /** Its MCP endpoint: `http://127.0.0.1:<port>/mcp`. */
  url: string;
  close(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
const STARTUP_MS = 20_000;

export async function startEverything(): Promise<EverythingServer> {
  const entry = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
  const child = spawn(process.execPath, ['--import', join(here, 'loopback-only.mjs'), entry, 'streamableHttp'], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not listen: ${seen}`)), STARTUP_MS);
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /LAB_PEER_PORT (\d+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${seen}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, close: () => stop(child) };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
