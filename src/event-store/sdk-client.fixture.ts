// Runs in Node (vitest): the real SDK 1.32 client calling a streaming tool through the product's fault proxy, which
// cuts the stream and records what the client received; then the core's analysis of that recording. Test support.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { analyze } from '../core/analyze';
import type { ConnectionRecord } from '../core/capture/model';
import type { FaultReport } from '../core/fault/planner';
import { parseFaultSpec } from '../core/fault/spec';
import type { Finding } from '../core/guard/types';
import { CaptureRecorder } from '../proxy/capture-recorder';
import { type FaultProxy, startFaultProxy } from '../proxy/fault-proxy';

export interface ToolCall {
  count: number;
  delayMs: number;
  bytes: number;
}

export interface Run {
  /** Progress values the client's onprogress got, in order. */
  progress: number[];
  /** The tool result's JSON text as the client got it, or the error the call ended with. */
  result?: string;
  error?: string;
  /** What the client's transport reported (refusals reach the SDK client only here). */
  clientErrors: string[];
  faults: FaultReport[];
  connections: ConnectionRecord[];
  findings: Finding[];
}

export interface Proxied {
  proxy: FaultProxy;
  recorder: CaptureRecorder;
  faults: FaultReport[];
}

/** The fault proxy in front of `upstream`, with `specs` (`--fault` syntax) and a recorder. */
export async function startProxy(upstream: string, specs: string[], onCut?: () => void): Promise<Proxied> {
  const faults: FaultReport[] = [];
  const recorder = new CaptureRecorder({ name: 'event-store-test', version: '1' });
  const parsed = specs.map((spec) => {
    const result = parseFaultSpec(spec);
    if (!result.ok) throw new Error(result.error);
    return result.fault;
  });
  const proxy = await startFaultProxy({
    upstream: new URL(upstream),
    host: '127.0.0.1',
    port: 0,
    faults: parsed,
    recorder,
    onReport: (report) => {
      faults.push(report);
      if (report.action === 'cut') onCut?.();
    },
  });
  return { proxy, recorder, faults };
}

export async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resumes (GET with Last-Event-ID) in what the client received. */
export function resumes(connections: readonly ConnectionRecord[]): ConnectionRecord[] {
  return connections.filter(
    (c) => c.method === 'GET' && c.requestHeaders.some((h) => h.name.toLowerCase() === 'last-event-id'),
  );
}

/** A record's body as text. */
export function bodyText(record: ConnectionRecord): string {
  return Buffer.concat(record.chunks.map((c) => c.bytes)).toString('utf8');
}

/**
 * One tool call by the SDK 1.32 client through `proxied`. The client resumes once (maxRetries 1: a refused cursor
 * is not sent again); when `stopWhen` holds the client is closed, as an app does on a refusal, ending the call.
 */
export async function callThrough(
  proxied: Proxied,
  call: ToolCall,
  stopWhen: (connections: readonly ConnectionRecord[]) => boolean = () => false,
): Promise<Run> {
  const client = new Client({ name: 'event-store-test-client', version: '1.0.0' });
  const clientErrors: string[] = [];
  client.onerror = (error) => clientErrors.push(error.message);
  const transport = new StreamableHTTPClientTransport(new URL(proxied.proxy.url), {
    reconnectionOptions: {
      maxRetries: 1,
      initialReconnectionDelay: 100,
      maxReconnectionDelay: 1000,
      reconnectionDelayGrowFactor: 1,
    },
  });
  await client.connect(transport);
  const progress: number[] = [];
  const run: Run = { progress, clientErrors, faults: proxied.faults, connections: [], findings: [] };
  const called = client
    .callTool({ name: 'stream', arguments: { ...call } }, undefined, {
      onprogress: (p) => void progress.push(p.progress),
      timeout: 30_000,
    })
    .then(
      (result) => void (run.result = JSON.stringify(result)),
      (error: unknown) => void (run.error = error instanceof Error ? error.message : String(error)),
    );
  const stopped = (async () => {
    await until(
      () => stopWhen(proxied.recorder.capture().connections) || run.result !== undefined || run.error !== undefined,
      'the call',
    );
    await client.close();
  })();
  await Promise.all([called, stopped]);
  await client.close();
  // Every exchange the client opened has ended at the proxy (a close's aborts arrive a moment later).
  await until(() => proxied.recorder.capture().connections.every((c) => c.end !== 'open'), 'exchanges to end');
  const capture = proxied.recorder.capture();
  run.connections = capture.connections;
  run.findings = analyze(capture).findings;
  return run;
}

/** Findings at warning or error severity. */
export function serious(findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => f.severity === 'error' || f.severity === 'warning');
}
