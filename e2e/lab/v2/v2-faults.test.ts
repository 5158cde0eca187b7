// Runs in Node (vitest): the product's fault proxy in front of the real TS SDK v2 server, the real v2 client (pinned
// to 2026-07-28) through it, recorded as the client received it (the proxy's CaptureRecorder): unarmed the run is
// clean; each 2026-07-28 fault provokes the rule it is for: the stream faults on what the server sent, the request
// faults on the request as rewritten (as the server got it).
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/core/analyze';
import type { Fault } from '../../../src/core/fault/fault';
import type { FaultReport } from '../../../src/core/fault/planner';
import { parseFaultSpec } from '../../../src/core/fault/spec';
import { CaptureRecorder } from '../../../src/proxy/capture-recorder';
import { startFaultProxy } from '../../../src/proxy/fault-proxy';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { runV2, V2_CLIENT_INFO, type V2RunResult } from './runs';
import { startV2Lab } from './server';

const TIMEOUT = 20_000;

interface Through {
  result: V2RunResult;
  reports: FaultReport[];
  /** Rules found at error or warning, and all rules found. */
  loud: string[];
  rules: string[];
}

/** How long the listen-only run waits for an acknowledgement that the fault keeps from the client. */
const ACK_WAIT_MS = 1000;

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * Only a listen stream: the SDK waits for the acknowledgement before listen() resolves, so with it dropped the run
 * gives up after ACK_WAIT_MS and closes the client (which aborts the stream).
 */
async function listenOnly(url: string): Promise<V2RunResult> {
  const client = new Client(V2_CLIENT_INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const steps: string[] = [];
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ACK_WAIT_MS));
  const outcome = await Promise.race([client.listen({ toolsListChanged: true }).then(() => 'acknowledged'), timer]);
  steps.push(`listen ${outcome}`);
  await client.close();
  return { verdict: outcome === 'timeout' ? 'error' : 'ok', steps, errors: [] };
}

async function through(specs: string[], listen = false): Promise<Through> {
  const faults = specs.map((spec): Fault => {
    const parsed = parseFaultSpec(spec);
    if (!parsed.ok) throw new Error(parsed.error);
    return parsed.fault;
  });
  const lab = await startV2Lab();
  const recorder = new CaptureRecorder({ name: 'v2-faults.test', version: '0' });
  const reports: FaultReport[] = [];
  const proxy = await startFaultProxy({
    upstream: new URL(lab.url),
    host: '127.0.0.1',
    port: 0,
    faults,
    onReport: (r) => reports.push(r),
    recorder,
  });
  try {
    // A rewritten request may be refused, which fails the application's call: the run ends there, recorded.
    const result = listen
      ? await listenOnly(proxy.url)
      : await runV2('v2-clean', { url: proxy.url, plans: lab.plans, toolsChanged: () => lab.toolsChanged() }).catch(
          (error: unknown): V2RunResult => ({ verdict: 'error', steps: [], errors: [String(error)] }),
        );
    // The client has closed; the proxy sees the last exchange (the listen's abort) end a moment later.
    await until(() => recorder.capture().connections.every((c) => c.end !== 'open'));
    const findings = analyze(recorder.capture()).findings;
    const ids = (list: typeof findings) => [...new Set(list.map((f) => f.rule))].sort();
    return {
      result,
      reports,
      loud: ids(findings.filter((f) => f.severity === 'error' || f.severity === 'warning')),
      rules: ids(findings),
    };
  } finally {
    await proxy.close();
    await lab.close();
  }
}

describe.concurrent('the fault proxy on real 2026-07-28 traffic (TS SDK v2)', () => {
  it(
    'unarmed: the clean run stays clean through it',
    async () => {
      const run = await through([]);
      expect(run.result.verdict, run.result.steps.join('\n')).toBe('ok');
      expect(run.rules).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'drop-listen-ack: the listen stream opens without its acknowledgement -> listen-not-acknowledged',
    async () => {
      const run = await through(['drop-listen-ack'], true);
      expect(run.result.steps).toEqual(['listen timeout']);
      expect(run.reports.map((r) => [r.action, r.detail['method']])).toEqual([['skip-event', 'subscriptions/listen']]);
      expect(run.loud).toEqual(['listen-not-acknowledged']);
    },
    TIMEOUT,
  );

  it(
    'inject-server-request: a roots/list request first on the stream_progress stream -> server-request-on-stream',
    async () => {
      const run = await through(['inject-server-request']);
      expect(run.reports.map((r) => r.action)).toEqual(['inject-request']);
      expect(run.loud).toContain('server-request-on-stream');
    },
    TIMEOUT,
  );

  it(
    'set-header MCP-Protocol-Version: the header says 2025-11-25, the body 2026-07-28 -> protocol-version-mismatch',
    async () => {
      const run = await through(['set-header:MCP-Protocol-Version=2025-11-25']);
      expect(run.reports.map((r) => [r.action, r.detail['header']])).toEqual([['set-header', 'MCP-Protocol-Version']]);
      expect(run.loud).toContain('protocol-version-mismatch');
    },
    TIMEOUT,
  );

  it(
    'set-header Mcp-Method: a tools/call sent as tools/list -> method-header-mismatch',
    async () => {
      const run = await through(['set-header:Mcp-Method=tools/list']);
      expect(run.loud).toContain('method-header-mismatch');
    },
    TIMEOUT,
  );

  it(
    'alter-request-state: the ask_user retry echoes another requestState -> request-state-altered',
    async () => {
      const run = await through(['alter-request-state']);
      expect(run.reports.map((r) => r.action)).toEqual(['alter-request-state']);
      expect(run.loud).toContain('request-state-altered');
    },
    TIMEOUT,
  );
});
