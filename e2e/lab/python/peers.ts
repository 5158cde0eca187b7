// Runs in Node (the lab): the Python SDK peers as child processes of the venv's python. The server prints its
// endpoint URL when it accepts connections; the client prints `LISTENING` when its listen stream is acknowledged and
// one JSON line with what the application saw at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PYTHON_DIR } from './venv';

export interface PythonServer {
  /** The MCP endpoint, http://127.0.0.1:<port>/mcp. */
  url: string;
  close(): Promise<void>;
}

/** What the Python client's application saw. */
export interface PythonClientResult {
  verdict: 'ok' | 'error';
  steps: string[];
  errors: string[];
  protocolVersion: string;
}

/** Generous: importing the SDK takes seconds on a loaded 2-core machine; only a hang reaches it. */
const START_LIMIT_MS = 45_000;

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Starts e2e/lab/python/server.py on 127.0.0.1 (a free port unless `port` is given). */
export function startPythonServer(python: string, port = 0): Promise<PythonServer> {
  const child = spawn(python, [join(PYTHON_DIR, 'server.py'), String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`the Python server printed no URL within ${START_LIMIT_MS} ms: ${err}`));
    }, START_LIMIT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the Python server exited (${code}): ${err}`));
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('http://')) return;
      clearTimeout(timer);
      resolve({ url: line.trim(), close: () => stopped(child) });
    });
  });
}

export interface PythonClientOptions {
  /** Called when the client's listen stream is acknowledged (the lab then publishes tools/list_changed). */
  onListening?: () => void;
  /** The server has the `touch_tools` tool (the Python server): the client publishes the change itself. */
  touchTool?: boolean;
}

/** What client.py does (see its docstring): the full clean run, or one stream_progress call, re-issued or not. */
export type PythonClientRun = 'clean' | 'cut' | 'call' | 'reissue';

/** Runs a client script of e2e/lab/python once and resolves with the JSON line it printed last. */
function runClientScript<T>(python: string, args: string[], onLine: (line: string) => void = () => undefined) {
  const child = spawn(python, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  let result: T | undefined;
  child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString('utf8')));
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('{')) result = JSON.parse(line) as T;
    else onLine(line);
  });
  return new Promise<T>((resolve, reject) => {
    child.once('close', (code) => {
      if (result) resolve(result);
      else reject(new Error(`the Python client exited (${code}) without a result: ${err}`));
    });
  });
}

/** Runs e2e/lab/python/client.py against `url` once and resolves with what its application saw. */
export function runPythonClient(
  python: string,
  url: string,
  run: PythonClientRun,
  options: PythonClientOptions = {},
): Promise<PythonClientResult> {
  const args = [join(PYTHON_DIR, 'client.py'), url, run, ...(options.touchTool ? ['--touch-tool'] : [])];
  return runClientScript<PythonClientResult>(python, args, (line) => {
    if (line === 'LISTENING') options.onListening?.();
  });
}

/** One session's call of the event-store app's `stream` tool, as resume_client.py's application saw it. */
export interface PythonStreamCall {
  /** Progress values the callback got, in order. */
  progress: number[];
  /** The result's text, or the error the call failed with. */
  text?: string;
  error?: string;
}

export interface PythonResumeResult {
  /** The first session's call and, when it failed, the call made again in a new session. */
  calls: PythonStreamCall[];
  /** Failures outside the calls (connecting, closing). */
  errors: string[];
  protocolVersion: string;
}

/** Runs e2e/lab/python/resume_client.py against the event-store app at `url` (see its docstring). */
export function runPythonResumeClient(
  python: string,
  url: string,
  call: { count: number; delayMs: number; bytes: number },
): Promise<PythonResumeResult> {
  const args = [
    join(PYTHON_DIR, 'resume_client.py'),
    url,
    String(call.count),
    String(call.delayMs),
    String(call.bytes),
  ];
  return runClientScript<PythonResumeResult>(python, args);
}
