// Runs in Node (lab, tests, fixture recorder): Debian's nginx (installed by .ci/run) as a child process in the
// foreground (`daemon off;`) on 127.0.0.1 with an ephemeral port, a generated config and every file in a temp dir;
// ended by its own pid and its workers'. Never a service: a daemonized nginx would outlive the test and keep its port.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { freePort } from '../free-port';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nginxConfig, type NginxSettings } from './config';

export const NGINX_BINARY = '/usr/sbin/nginx';
const READY_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5000;
const ATTEMPTS = 3;

export type NginxOptions = Omit<NginxSettings, 'port' | 'dir'> & { port?: number };

export interface Nginx {
  /** `http://127.0.0.1:<port>`: the upstream's paths, through nginx. */
  url: string;
  port: number;
  /** The master's pid. */
  pid: number;
  /** The config nginx runs with, as written. */
  config: string;
  /** nginx's error log so far (its upstream timeouts are logged there at `error`). */
  errorLog(): string;
  /** The master's children right now: its worker processes. */
  workers(): number[];
  /** SIGTERM to the master (a fast shutdown: it ends its workers), SIGKILL to master and workers after 5 s. */
  close(): Promise<void>;
}

/** Throws, never skips: a missing nginx fails the tests that need it. */
export function nginxBinary(): string {
  if (!existsSync(NGINX_BINARY))
    throw new Error(
      `nginx is not installed (${NGINX_BINARY}): the lab's intermediary tests need Debian's nginx (apt-get install nginx; .ci/run installs it)`,
    );
  return NGINX_BINARY;
}

/** True once nginx answers an HTTP request on the port (any status: the upstream may answer 404; nginx names itself). */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/__nginx_ready', method: 'GET', timeout: 500 }, (res) => {
      res.resume();
      resolve(String(res.headers['server'] ?? '').startsWith('nginx'));
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(false));
    req.end();
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** The master's children (its workers), from /proc: ended by pid if the master dies without ending them. */
function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter((p) => p !== '')
      .map(Number);
  } catch {
    return [];
  }
}

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

class AddressInUse extends Error {}

async function startOnce(binary: string, options: NginxOptions): Promise<Nginx> {
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'mcp-nginx-'));
  // Run as root, nginx's workers are `nobody`: they must reach the temp paths nginx creates in here for them.
  chmodSync(dir, 0o755);
  const config = nginxConfig({ ...options, port, dir });
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, config);
  const child = spawn(binary, ['-p', dir, '-c', file, '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (data: Buffer) => void (output += data.toString('utf8')));
  child.stderr.on('data', (data: Buffer) => void (output += data.toString('utf8')));
  const errorLog = (): string => {
    try {
      return readFileSync(join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const close = async (): Promise<void> => {
    const pid = child.pid;
    if (pid !== undefined && child.exitCode === null && child.signalCode === null) {
      const workers = childPids(pid);
      kill(pid, 'SIGTERM');
      const killer = setTimeout(() => {
        kill(pid, 'SIGKILL');
        for (const worker of workers) kill(worker, 'SIGKILL');
      }, STOP_GRACE_MS);
      await exited(child);
      clearTimeout(killer);
      for (const worker of workers) kill(worker, 'SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && child.exitCode === null) {
    if (await answers(port)) {
      if (child.pid === undefined) break;
      const pid = child.pid;
      return { url: `http://127.0.0.1:${port}`, port, pid, config, errorLog, workers: () => childPids(pid), close };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const log = `${output}${errorLog()}`;
  await close();
  if (/Address already in use/.test(log)) throw new AddressInUse(`127.0.0.1:${port} is taken`);
  throw new Error(`nginx did not answer on 127.0.0.1:${port}:\n${log.slice(-2000)}`);
}

/** Starts a fresh nginx in front of `options.upstream`; on EADDRINUSE it tries another ephemeral port (3 times). */
export async function startNginx(options: NginxOptions): Promise<Nginx> {
  const binary = nginxBinary();
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(binary, options);
    } catch (error) {
      if (!(error instanceof AddressInUse) || options.port !== undefined || attempt >= ATTEMPTS) throw error;
    }
  }
}
