// Runs in Node (vitest, the fixture recorder): the lab's real intermediaries with the real SDK 1.32 client through
// them: Debian's nginx (a short read timeout, with and without server keep-alives) and Express's compression(), in
// front of an SDK 1.32 or 1.29 server. Each run returns what the client received and what the server wrote, when.
import type { ConnectionRecord } from '../../../src/core/capture/model';
import {
  type ExpressOrigin,
  type OriginStored,
  type OriginWrite,
  startExpressOrigin,
} from '../buffering/express-origin';
import { recordingFetch } from '../client/recording-fetch';
import { type RunResult, runScenario } from '../client/run-scenario';
import { findScenario, type Scenario, type ToolCall } from '../scenarios';
import { type Nginx, startNginx } from './nginx';

/** nginx's `proxy_read_timeout` in every nginx run (s): short, so a cut comes in seconds. */
export const READ_TIMEOUT_S = 2;
/** The server's keep-alive comments in the fixed configuration (ms): shorter than the read timeout. */
export const KEEPALIVE_MS = 500;

/** What stands between the client and the server, and which SDK the server runs. */
export type Intermediary =
  /** nginx 1.22, its defaults but `proxy_read_timeout`; `keepAliveMs` is the SDK 1.32 server's option. */
  | { kind: 'nginx'; sdk: '1.32' | '1.29'; keepAliveMs?: number }
  /** Express with `compression()` (its defaults) in front of the MCP route; no proxy. */
  | { kind: 'compression'; sdk: '1.32' | '1.29' };

export interface IntermediaryRun {
  /** The fixture folder: fixtures/<name>/. */
  name: string;
  via: Intermediary;
  calls: ToolCall[];
  callTimeoutMs: number;
  /** After the calls, the application keeps the client this long (its standalone GET stays open meanwhile). */
  lingerMs: number;
  /** What the recording shows, for expected.json's notes (measured numbers are added by the recorder). */
  notes: string;
  /**
   * The recording stops this long after the client's first request, with what is open still open (a hang is judged
   * while the client waits); the run itself goes on to its end. Such a run takes its time: fixtures only, not
   * `npm start`.
   */
  stopAfterMs?: number;
}

const progress = (count: number, delayMs: number): ToolCall => ({ tool: 'stream_progress', args: { count, delayMs } });

export const RUNS: readonly IntermediaryRun[] = [
  {
    name: 'nginx-idle-get-cut',
    via: { kind: 'nginx', sdk: '1.32' },
    calls: [],
    callTimeoutMs: 4000,
    lingerMs: 7000,
    notes: `nginx 1.22 (Debian) in front of the SDK 1.32 server, its defaults but proxy_read_timeout ${READ_TIMEOUT_S}s; the server's keep-alive comments at the SDK's default 15 s, longer than that. The SDK 1.32 client initializes and stays idle for 7 s: nginx ends its standalone GET stream after ${READ_TIMEOUT_S} s without a byte, again and again (0 bytes each, the connection closed without the terminating chunk: a network error, "terminated: other side closed"), and the client opens it again each time after the priming retry (150 ms).`,
  },
  {
    name: 'nginx-slow-call-cut',
    via: { kind: 'nginx', sdk: '1.32' },
    calls: [progress(1, 3000)],
    callTimeoutMs: 8000,
    lingerMs: 0,
    notes: `The same nginx (proxy_read_timeout ${READ_TIMEOUT_S}s). stream_progress silent for 3 s before its one progress and its result: nginx cuts the POST stream ${READ_TIMEOUT_S} s after the priming event (a network error after those bytes); the client resumes with Last-Event-ID = the priming id, and the answer (progress 1, result) comes on that resume, which the server then ends. The standalone GET is cut once meanwhile.`,
  },
  {
    name: 'nginx-slow-call-lost',
    via: { kind: 'nginx', sdk: '1.32' },
    calls: [progress(1, 5500)],
    callTimeoutMs: 7500,
    lingerMs: 0,
    notes: `The same nginx (proxy_read_timeout ${READ_TIMEOUT_S}s). stream_progress silent for 5.5 s: nginx cuts the POST stream ${READ_TIMEOUT_S} s after the priming event, the client resumes with Last-Event-ID, and nginx cuts that resume too, 0 bytes. The SDK 1.32 client keeps a cursor per stream read, so a resume that delivered no event leaves it none: its next reconnect is a GET without Last-Event-ID, which the server refuses 409 (its standalone GET is open) until the client gives up ("Maximum reconnection attempts (2) exceeded"). The server stores the answer at 5.5 s with no stream to write it to; the call waits for its 7.5 s timeout and is cancelled.`,
  },
  {
    name: 'nginx-keepalive-fixed',
    via: { kind: 'nginx', sdk: '1.32', keepAliveMs: KEEPALIVE_MS },
    calls: [progress(1, 5500)],
    callTimeoutMs: 7500,
    lingerMs: 0,
    notes: `The fixed setup: the same nginx (proxy_read_timeout ${READ_TIMEOUT_S}s), the SDK 1.32 server with keepAliveMs ${KEEPALIVE_MS} (a ": keepalive" comment on every open SSE stream, shorter than the timeout). The same 5.5 s silent call: no cut; the POST stream carries its priming event, the comments, then progress 1 and the result; the standalone GET carries comments only.`,
  },
  {
    name: 'compression-buffered',
    via: { kind: 'compression', sdk: '1.29' },
    calls: [progress(5, 300)],
    callTimeoutMs: 5000,
    lingerMs: 0,
    notes:
      'Express with the compression() middleware (its defaults) in front of an SDK 1.29.0 server (the last release whose POST streams carry only "Cache-Control: no-cache": no no-transform, so compression() gzips them; nothing calls res.flush()). stream_progress sends 5 progress events 300 ms apart, then its result: the client receives the whole gzip body (priming, 5 progress, result) in one chunk after the server wrote its result. The standalone GET (no-transform in 1.29 already) is not compressed.',
  },
  {
    name: 'nginx-buffered',
    via: { kind: 'nginx', sdk: '1.29' },
    calls: [progress(5, 300)],
    callTimeoutMs: 5000,
    lingerMs: 0,
    notes: `nginx 1.22 with its defaults (proxy_buffering on; proxy_read_timeout ${READ_TIMEOUT_S}s) in front of an SDK 1.29.0 server, which sends no X-Accel-Buffering: no. The same call: nginx holds the POST response, head and body, until the server ends it (less than postpone_output, 1460 bytes, and no flush in buffered mode), then delivers it in one burst. The standalone GET's head never arrives before the client closes. SDK 1.32 sends X-Accel-Buffering: no, which turns nginx's buffering off for its responses.`,
  },
  {
    name: 'compression-streamed',
    via: { kind: 'compression', sdk: '1.32' },
    calls: [progress(5, 300)],
    callTimeoutMs: 5000,
    lingerMs: 0,
    notes:
      'The control of compression-buffered: the same Express app with compression() and the same call, served by SDK 1.32.2, whose SSE responses say "Cache-Control: no-cache, no-transform": compression() leaves them alone, and each progress event reaches the client when the server writes it.',
  },
  {
    name: 'nginx-request-hang',
    via: { kind: 'nginx', sdk: '1.32', keepAliveMs: KEEPALIVE_MS },
    calls: [progress(1, 36_000)],
    callTimeoutMs: 45_000,
    lingerMs: 0,
    stopAfterMs: 32_000,
    notes: `The fixed nginx (proxy_read_timeout ${READ_TIMEOUT_S}s, the server's keep-alive comments every ${KEEPALIVE_MS} ms): a tool that thinks 36 s before its one progress and its result. Nothing is cut; the recording stops 32 s after the first request, while the client still waits: the tools/call stream is open, alive with comments, without a message since its priming event (request-hang at its default 30 s). The answer came after the recording, at 36 s.`,
  },
];

export function findRun(name: string): IntermediaryRun {
  const run = RUNS.find((r) => r.name === name);
  if (!run) throw new Error(`no intermediary run ${name}`);
  return run;
}

export interface RunOutcome {
  result: RunResult;
  /** What the client received (the recording fetch), as it stood when the recording stopped. */
  connections: ConnectionRecord[];
  /** When the recording stopped (epoch ms), for a run with `stopAfterMs`. */
  observedUntil?: number;
  /** What the server wrote, when (before any middleware). */
  writes: readonly OriginWrite[];
  /** What the server put into its event store, when: everything it produced for the streams, delivered or not. */
  stored: readonly OriginStored[];
  originErrors: readonly { t: number; message: string }[];
  /** The URL the client talked to: nginx's, or the Express app's. */
  baseUrl: string;
  /** nginx's error log at the end of the run (its `upstream timed out` lines); '' without nginx. */
  nginxLog: string;
  nginxConfig: string;
}

export interface RunPorts {
  /** The port the client talks to (nginx's, or the Express app's without nginx); ephemeral by default. */
  port?: number;
}

/** The SDK 1.32 client run of an intermediary run: its calls, timeout and linger (the lab replays it too). */
export function clientScenario(run: IntermediaryRun): Scenario {
  const clean = findScenario('clean');
  if (!clean) throw new Error('no clean scenario');
  return {
    ...clean,
    calls: run.calls,
    callTimeoutMs: run.callTimeoutMs,
    lingerMs: run.lingerMs,
    probeSessionAfter: false,
  };
}

export async function runIntermediary(run: IntermediaryRun, ports: RunPorts = {}): Promise<RunOutcome> {
  const via = run.via;
  const keepAliveMs = via.kind === 'nginx' ? via.keepAliveMs : undefined;
  const origin: ExpressOrigin = await startExpressOrigin({
    sdk: via.sdk,
    compression: via.kind === 'compression',
    ...(keepAliveMs !== undefined && { keepAliveMs }),
    ...(via.kind === 'compression' && ports.port !== undefined && { port: ports.port }),
  });
  let nginx: Nginx | undefined;
  try {
    if (via.kind === 'nginx')
      nginx = await startNginx({ upstream: origin.url, readTimeoutS: READ_TIMEOUT_S, port: ports.port });
    const baseUrl = nginx?.url ?? origin.url;
    const recorder = recordingFetch();
    let stopped: { connections: ConnectionRecord[]; at: number } | undefined;
    const stop =
      run.stopAfterMs === undefined
        ? undefined
        : setTimeout(() => {
            stopped = {
              connections: structuredClone(recorder.connections),
              at: performance.timeOrigin + performance.now(),
            };
          }, run.stopAfterMs);
    const result = await runScenario(clientScenario(run), { baseUrl, fetch: recorder.fetch, selectScenario: false });
    clearTimeout(stop);
    return {
      result,
      connections: stopped?.connections ?? recorder.connections,
      ...(stopped && { observedUntil: stopped.at }),
      writes: origin.writes(),
      stored: origin.stored(),
      originErrors: origin.errors(),
      baseUrl,
      nginxLog: nginx?.errorLog() ?? '',
      nginxConfig: nginx?.config ?? '',
    };
  } finally {
    await nginx?.close();
    await origin.close();
  }
}
