// Runs in Node (v2 lab): the product's fault proxy in front of the real TS SDK v2 server, the real v2 client (pinned
// to 2026-07-28) through it. The proxy's recorder keeps what the client received and, for a request fault, the
// request as the server got it; the run gives that recording as HAR + chunk timings, the fixtures' shape.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Fault } from '../../../src/core/fault/fault';
import type { FaultReport } from '../../../src/core/fault/planner';
import { parseFaultSpec } from '../../../src/core/fault/spec';
import { startFaultProxy } from '../../../src/proxy/fault-proxy';
import { WireRecorder } from '../proxy/wire-recorder';
import { toChunksNdjson, toHar } from '../wire-har';
import { progressCall, runV2, V2_CLIENT_INFO, type V2RunResult } from './runs';
import { startV2Lab } from './server';

export interface V2FaultPlan {
  /** The fixture's folder: fixtures/<name>/. */
  name: string;
  /** The proxy's --fault specs. */
  faults: string[];
  /** Only a listen stream, sent one tools/list_changed (the SDK's listen() waits for the acknowledgement). */
  listenOnly?: true;
  /**
   * Two clients, B a tools/list ahead so their ids differ, then a stream_progress call each at once, with a short
   * timeout (an answer under another id leaves a call waiting).
   */
  twoClients?: true;
  /** The rules the run must give; every other rule must stay quiet. */
  must: string[];
  notes: string;
}

export const V2_FAULT_PLANS: readonly V2FaultPlan[] = [
  {
    name: 'v2-fault-listen-ack-dropped',
    faults: ['drop-listen-ack'],
    listenOnly: true,
    must: ['listen-not-acknowledged'],
    notes:
      'A subscriptions/listen stream whose acknowledgement the fault proxy dropped (drop-listen-ack), then one tools/list_changed on it: the SDK waits for the acknowledgement; the application gives up after 1 s and closes the client.',
  },
  {
    name: 'v2-fault-server-request',
    faults: ['inject-server-request'],
    must: ['server-request-on-stream'],
    notes:
      'The clean run with a roots/list request sent first on the stream_progress response stream by the fault proxy (inject-server-request).',
  },
  {
    name: 'v2-fault-version-header',
    faults: ['set-header:MCP-Protocol-Version=2025-11-25'],
    must: ['protocol-version-mismatch'],
    notes:
      'The clean run with the first tools/call sent upstream with MCP-Protocol-Version 2025-11-25 while its _meta says 2026-07-28 (set-header).',
  },
  {
    name: 'v2-fault-method-header',
    faults: ['set-header:Mcp-Method=tools/list'],
    must: ['method-header-mismatch'],
    notes: 'The clean run with the first tools/call sent upstream with Mcp-Method tools/list (set-header).',
  },
  {
    name: 'v2-fault-request-state',
    faults: ['alter-request-state'],
    must: ['request-state-altered'],
    notes: "The clean run with the ask_user retry's requestState changed on its way upstream (alter-request-state).",
  },
  {
    name: 'v2-fault-session-header',
    faults: ['set-header:Mcp-Session-Id=7f3c9a1e5b2d4c6f8a0b1c2d3e4f5a6b'],
    must: ['stateless-session-headers'],
    notes:
      'The clean run with the first tools/call sent upstream with an Mcp-Session-Id header (set-header), as a client still keeping a 2025 session would; the createMcpHandler server ignores it and answers in full.',
  },
  {
    name: 'v2-fault-event-ids',
    faults: ['add-event-ids:1000'],
    must: ['stateless-event-ids'],
    notes:
      'The clean run with the events of the first tools/call response stream (stream_progress: five progress notifications and the result) numbered by the fault proxy (add-event-ids:1000: id: 1 to 6, the first also retry: 1000), as a server still on the 2025 transport resumability would; every call answered in full. Neither SDK writes ids on 2026-07-28 streams by itself.',
  },
  {
    name: 'v2-fault-response-id',
    faults: ['rewrite-response-id'],
    twoClients: true,
    must: ['response-id-mismatch'],
    notes:
      "Two TS SDK v2 clients pinned to 2026-07-28 on one endpoint: B calls tools/list (its request 0), then A (its request 0) and B (its request 1) call stream_progress at once; the fault proxy (rewrite-response-id) crosses the two answers' ids as a gateway pooling exchanges would, so A's stream carries its result under id 1 and B's under id 0 (each stream's progress is its own). Each SDK client drops an answer for an id it is not waiting for on that POST; both calls time out after 1.5 s.",
  },
];

/** How long the listen-only run waits for an acknowledgement. */
const ACK_WAIT_MS = 1000;

export interface V2FaultRun {
  result: V2RunResult;
  reports: FaultReport[];
  har: string;
  ndjson: string;
}

/**
 * Only a listen stream, which carries one tools/list_changed once its response head has passed the proxy (`opened`);
 * the SDK's listen() waits for the acknowledgement, so the run gives up after ACK_WAIT_MS and closes the client.
 */
export async function listenOnly(url: string, opened: () => Promise<void>): Promise<V2RunResult> {
  const client = new Client(V2_CLIENT_INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ACK_WAIT_MS));
  const listening = client.listen({ toolsListChanged: true }).then(() => 'acknowledged');
  await opened();
  const outcome = await Promise.race([listening, timer]);
  await client.close();
  return { verdict: outcome === 'timeout' ? 'error' : 'ok', steps: [`listen ${outcome}`], errors: [] };
}

/** How long each crossed call waits for its answer (it never comes under its own id). */
const CROSSED_WAIT_MS = 1500;

/** The two-client run: B lists tools first, then both call stream_progress at once. */
export async function twoClients(url: string): Promise<V2RunResult> {
  const open = async (): Promise<Client> => {
    const client = new Client(V2_CLIENT_INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return client;
  };
  const a = await open();
  const b = await open();
  const steps: string[] = [];
  const errors: string[] = [];
  try {
    steps.push(`B tools/list ${(await b.listTools()).tools.length} tools`);
    const calls = await Promise.allSettled([a, b].map((client) => progressCall(client, steps, CROSSED_WAIT_MS)));
    for (const [i, call] of calls.entries())
      if (call.status === 'rejected')
        errors.push(
          `${i === 0 ? 'A' : 'B'}: ${call.reason instanceof Error ? call.reason.message : String(call.reason)}`,
        );
  } finally {
    await a.close();
    await b.close();
  }
  return { verdict: errors.length === 0 ? 'ok' : 'error', steps, errors };
}

/** Resolves once a subscriptions/listen response head has passed the proxy (or after ACK_WAIT_MS). */
async function listenHead(recorder: WireRecorder): Promise<void> {
  for (let waited = 0; waited < ACK_WAIT_MS; waited += 20) {
    const open = recorder
      .exchanges()
      .some((e) => e.responseAt !== undefined && e.requestBody?.toString('utf8').includes('"subscriptions/listen"'));
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const parsed = (spec: string): Fault => {
  const result = parseFaultSpec(spec);
  if (!result.ok) throw new Error(result.error);
  return result.fault;
};

/** One run of `plan` (faults [] for the unarmed control) on a fresh lab and proxy; `port` 0 picks one. */
export async function runFaultPlan(
  plan: Pick<V2FaultPlan, 'faults' | 'listenOnly' | 'twoClients'>,
  port = 0,
): Promise<V2FaultRun> {
  const lab = await startV2Lab();
  const recorder = new WireRecorder();
  const reports: FaultReport[] = [];
  const proxy = await startFaultProxy({
    upstream: new URL(lab.url),
    host: '127.0.0.1',
    port,
    faults: plan.faults.map(parsed),
    onReport: (r) => reports.push(r),
    recorder,
  });
  try {
    // A rewritten request may be refused, which fails the application's call: the run ends there, recorded.
    const result = plan.twoClients
      ? await twoClients(proxy.url)
      : plan.listenOnly
        ? await listenOnly(proxy.url, async () => {
            await listenHead(recorder);
            lab.toolsChanged();
          })
        : await runV2('v2-clean', { url: proxy.url, plans: lab.plans, toolsChanged: () => lab.toolsChanged() }).catch(
            (error: unknown): V2RunResult => ({ verdict: 'error', steps: [], errors: [String(error)] }),
          );
    // The client has closed; the proxy sees the last exchange (the listen's abort) end a moment later.
    await recorder.settled(5000);
    const recording = { startedAt: recorder.startedAt, pageUrl: proxy.url, exchanges: recorder.exchanges() };
    return { result, reports, har: toHar(recording), ndjson: toChunksNdjson(recording) };
  } finally {
    await proxy.close();
    await lab.close();
  }
}
