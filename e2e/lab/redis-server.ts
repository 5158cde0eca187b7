// Runs in Node (tests, benches): a real `redis-server` (Debian's, installed by .ci/run) as a child process in the
// foreground on 127.0.0.1, an ephemeral port and a temp dir, no persistence; ended by its own pid. Never a service.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { freePort } from './free-port';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  port: number;
  pid: number;
  /** Ends the server (SIGTERM to its pid, SIGKILL after 5 s) and removes its directory. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;

/** The redis-server binary, or an error that says how to get it: a missing server fails the tests, never skips them. */
export function redisServerBinary(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(
      'redis-server is not installed: the Redis event store tests need a real one (apt-get install redis-server; .ci/run installs it)',
    );
  }
}

/** True once the server answers PING with +PONG. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data: Buffer) => {
      answer += data.toString('latin1');
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

async function startOnce(binary: string): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'mcp-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (data: Buffer) => void (output += data.toString('utf8')));
  child.stderr.on('data', (data: Buffer) => void (output += data.toString('utf8')));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(child.pid, 'SIGTERM');
      const killer = setTimeout(() => child.pid !== undefined && process.kill(child.pid, 'SIGKILL'), 5000);
      await exited(child);
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await pings(port)) {
      if (child.pid === undefined) break;
      return { url: `redis://127.0.0.1:${port}`, port, pid: child.pid, stop };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error(`redis-server did not answer PING on 127.0.0.1:${port}:\n${output.slice(-2000)}`);
}

/** Starts a fresh redis-server; retries once on another port if the first one was taken meanwhile. */
export async function startRedisServer(): Promise<RedisServer> {
  const binary = redisServerBinary();
  try {
    return await startOnce(binary);
  } catch {
    return startOnce(binary);
  }
}
