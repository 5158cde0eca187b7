// Runs in Node (the lab): the Python SDK scenarios. Each puts the product's fault proxy (src/proxy/fault-proxy.ts,
// what `mcp-stream-inspector proxy` runs) in front of a real server, with the lab's wire recorder on it, and drives a
// real client through it: the Python SDK (mcp 2.3.0) against the TS SDK v2 server and against its own server, the
// TS SDK v2 client against the Python server, and the TS SDK 1.32 client resuming a 2025-era Python stream.
import { Client as Client132 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport132 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Fault } from '../../../src/core/fault/fault';
import type { FaultReport } from '../../../src/core/fault/planner';
import { parseFaultSpec } from '../../../src/core/fault/spec';
import { startFaultProxy } from '../../../src/proxy/fault-proxy';
import { streamProgressText } from '../payload';
import { toolCall } from '../proxy/fault-spec';
import { WireRecorder } from '../proxy/wire-recorder';
import { runV2, V2_CLIENT_INFO, type V2RunResult } from '../v2/runs';
import { startV2Lab, type V2Lab } from '../v2/server';
import type { WireRecording } from '../wire-har';
import { runPythonClient, startPythonServer } from './peers';

export type PyRunName =
  | 'py-clean'
  | 'py-client-ts-server'
  | 'py-server-ts-client'
  | 'py-client-cut-not-reissued'
  | 'py-server-cut-not-reissued'
  | 'py-2025-resume'
  | 'py-client-cut-reissued'
  | PyFaultRunName;

/** The Python client's runs with one fault of the product's proxy rewriting real traffic (`--fault` specs). */
export type PyFaultRunName = 'py-fault-server-request' | 'py-fault-version-header' | 'py-fault-method-header';

/** Each fault run: the Python client's one stream_progress call against the Python server, through the fault. */
export const PY_FAULTS: Readonly<Record<PyFaultRunName, string>> = {
  'py-fault-server-request': 'inject-server-request',
  'py-fault-version-header': 'set-header:MCP-Protocol-Version=2025-11-25,method=tools/list',
  'py-fault-method-header': 'set-header:Mcp-Method=tools/list',
};

const isFaultRun = (name: PyRunName): name is PyFaultRunName => name in PY_FAULTS;

function parsedFault(spec: string): Fault {
  const parsed = parseFaultSpec(spec);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.fault;
}

/**
 * The cut every cut run applies, as the lab's cut-mid-event: the stream_progress response stream, 40 bytes into the
 * data of the event after progress 2 (so the recording shows whole events before the torn one).
 */
export const PY_CUT: Fault = {
  kind: 'cut-mid-event',
  spec: 'cut-mid-event:40 (after progress 2)',
  every: false,
  match: toolCall('stream_progress'),
  after: { count: 2, kind: 'progress' },
  at: { dataBytes: 40 },
};

export interface PyRunResult extends V2RunResult {
  /** The fault lines the proxy reported, in order. */
  faults: FaultReport[];
}

export interface PyRecorded {
  result: PyRunResult;
  recording: WireRecording;
}

type Upstream = { url: string; close(): Promise<void>; v2?: V2Lab };

async function upstream(kind: 'python' | 'ts-v2', python: string, port: number): Promise<Upstream> {
  if (kind === 'python') return startPythonServer(python, port === 0 ? 0 : port + 100);
  const lab = await startV2Lab(port === 0 ? 0 : port + 100);
  return { url: lab.url, close: () => lab.close(), v2: lab };
}

/** A second TS v2 client publishes tools/list_changed through the Python server's `touch_tools` tool. */
export async function touchTools(url: string): Promise<void> {
  const client = new Client(V2_CLIENT_INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  await client.callTool({ name: 'touch_tools', arguments: {} });
  await client.close();
}

const PROGRESS = { count: 5, delayMs: 30 };

/** The TS SDK 1.32 client (2025-11-25, sessions): one stream_progress call, resumed by the SDK when cut. */
export async function resume132(url: string): Promise<V2RunResult> {
  const steps: string[] = [];
  const errors: string[] = [];
  const client = new Client132({ name: 'mcp-stream-inspector-lab-client', version: '0.1.0' });
  client.onerror = (error) => errors.push(`transport: ${error.message}`);
  const transport = new Transport132(new URL(url), {
    reconnectionOptions: {
      initialReconnectionDelay: 50,
      maxReconnectionDelay: 200,
      reconnectionDelayGrowFactor: 1,
      maxRetries: 2,
    },
  });
  await client.connect(transport);
  steps.push(`initialized ${transport.protocolVersion ?? 'nothing'}`);
  const seen: number[] = [];
  const result = await client.callTool({ name: 'stream_progress', arguments: PROGRESS }, undefined, {
    onprogress: (p) => seen.push(p.progress),
    timeout: 5000,
  });
  const text = (result.content as { text?: string }[] | undefined)?.[0]?.text;
  const ok = text === streamProgressText(PROGRESS);
  steps.push(`stream_progress ${ok ? 'ok' : 'CORRUPTED'} (progress ${seen.join(',')})`);
  await transport.terminateSession();
  await client.close();
  return { verdict: ok ? 'ok' : 'error', steps, errors };
}

/** Runs one Python scenario on fresh servers and proxy (`port` 0: free ports) and returns the recorder's view. */
export async function runPy(name: PyRunName, python: string, port = 0): Promise<PyRecorded> {
  const tsServer = ['py-client-ts-server', 'py-client-cut-not-reissued', 'py-client-cut-reissued'];
  const serverKind = tsServer.includes(name) ? 'ts-v2' : 'python';
  const cut = name.includes('cut') || name === 'py-2025-resume';
  const faults = isFaultRun(name) ? [parsedFault(PY_FAULTS[name])] : cut ? [PY_CUT] : [];
  const origin = await upstream(serverKind, python, port);
  const recorder = new WireRecorder();
  const reports: FaultReport[] = [];
  const proxy = await startFaultProxy({
    upstream: new URL(origin.url),
    host: '127.0.0.1',
    port,
    faults,
    recorder,
    onReport: (report) => reports.push(report),
  });
  try {
    recorder.reset();
    let result: V2RunResult;
    if (name === 'py-2025-resume') result = await resume132(proxy.url);
    else if (name === 'py-server-ts-client' || name === 'py-server-cut-not-reissued') {
      // The TS v2 client's runs, against the Python server through the proxy (which does the cut, not the v2 tap).
      const lab: V2Lab = {
        url: proxy.url,
        recorder,
        plans: [],
        log: { cuts: [] },
        toolsChanged: () => void touchTools(proxy.url),
        close: () => Promise.resolve(),
      };
      result = await runV2(name === 'py-server-ts-client' ? 'v2-clean' : 'v2-cut-not-reissued', lab);
    } else {
      const clientRun =
        name === 'py-client-cut-reissued' ? 'reissue' : isFaultRun(name) ? 'call' : cut ? 'cut' : 'clean';
      const run = await runPythonClient(python, proxy.url, clientRun, {
        touchTool: serverKind === 'python',
        onListening: () => origin.v2?.toolsChanged(),
      });
      result = { verdict: run.verdict, steps: run.steps, errors: run.errors };
    }
    await recorder.settled(5000);
    const recording = { startedAt: recorder.startedAt, pageUrl: proxy.url, exchanges: recorder.exchanges() };
    return { result: { ...result, faults: reports }, recording };
  } finally {
    await proxy.close();
    await origin.close();
  }
}
