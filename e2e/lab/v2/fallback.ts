// Runs in Node (v2 lab): a TypeScript SDK v2 client left to negotiate (`versionNegotiation: { mode: 'auto' }`)
// against the lab's SDK 1.32 origin, behind the lab proxy (no fault), whose wire recorder records it. The client
// probes `server/discover` at 2026-07-28, the 1.32 server refuses it (400), and the client falls back to
// `initialize` at 2025-11-25 by itself: the real case of a version fallback.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { streamProgressText } from '../payload';
import { WireRecorder } from '../proxy/wire-recorder';
import { startLab } from '../start-lab';
import type { WireRecording } from '../wire-har';
import { V2_CLIENT_INFO, type V2RunResult } from './runs';

const PROGRESS = { count: 3, delayMs: 30 };

export async function runProbeFallback(port = 0): Promise<{ result: V2RunResult; recording: WireRecording }> {
  const recorder = new WireRecorder();
  const lab = await startLab({ port, build: 'never', recorder });
  try {
    recorder.reset();
    const result = await probeFallbackClient(new URL('/mcp', lab.url).href);
    await recorder.settled(5000);
    const recording = { startedAt: recorder.startedAt, pageUrl: lab.url, exchanges: recorder.exchanges() };
    return { result, recording };
  } finally {
    await lab.close();
  }
}

/** The client's part of the run, against any endpoint (the lab, or a replay of its recording). */
export async function probeFallbackClient(url: string): Promise<V2RunResult> {
  const steps: string[] = [];
  const errors: string[] = [];
  const client = new Client(V2_CLIENT_INFO, { versionNegotiation: { mode: 'auto' } });
  client.onerror = (error) => errors.push(`transport: ${error.message}`);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  steps.push(`negotiated ${client.getNegotiatedProtocolVersion() ?? 'nothing'}`);
  const result = await client.callTool({ name: 'stream_progress', arguments: PROGRESS });
  const text = (result.content as { text?: string }[] | undefined)?.[0]?.text;
  const ok = text === streamProgressText(PROGRESS);
  steps.push(`stream_progress ${ok ? 'ok' : 'CORRUPTED'}`);
  await client.close();
  return { verdict: ok ? 'ok' : 'error', steps, errors };
}
