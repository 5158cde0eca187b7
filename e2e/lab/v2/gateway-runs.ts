// Runs in Node (v2 lab): the real TS SDK v2 clients (pinned to 2026-07-28) through the faulty gateways of
// gateways.ts in front of the real TS SDK v2 server; the gateway's wire recorder keeps what the clients received.
import { bigResultText } from '../payload';
import type { WireRecording } from '../wire-har';
import { startGateway, type GatewayKind } from './gateways';
import { connect, progressCall, textOf, type V2Driver, type V2RunResult } from './runs';
import { startV2Lab } from './server';

/** Small: the crossed answers are plain JSON, and the fixture stays small. */
const SMALL_RESULT_BYTES = 256;
/** The crossed calls wait this long for their own answer, which never comes. */
const CROSSED_TIMEOUT_MS = 1000;

async function bigResult(client: Awaited<ReturnType<typeof connect>>, steps: string[], who = ''): Promise<void> {
  const big = await client.callTool(
    { name: 'big_result', arguments: { sizeBytes: SMALL_RESULT_BYTES } },
    { timeout: CROSSED_TIMEOUT_MS },
  );
  steps.push(`${who}big_result ${textOf(big) === bigResultText(SMALL_RESULT_BYTES) ? 'ok' : 'CORRUPTED'}`);
}

/** numbering: one client, stream_progress (SSE) and a small big_result (JSON), each answered in full. */
async function numbered(driver: V2Driver, steps: string[], errors: string[]): Promise<boolean> {
  const client = await connect(driver, '2026-07-28', errors);
  try {
    await progressCall(client, steps);
    await bigResult(client, steps);
    return true;
  } finally {
    await client.close();
  }
}

/**
 * crossing: client A calls big_result (its request 0) while client B, which called stream_progress first (its
 * request 0, answered over SSE), calls it too (its request 1); the gateway hands each the other's answer, and both
 * calls time out.
 */
async function crossed(driver: V2Driver, steps: string[], errors: string[]): Promise<boolean> {
  const a = await connect(driver, '2026-07-28', errors);
  const b = await connect(driver, '2026-07-28', errors);
  try {
    await progressCall(b, steps);
    const calls = await Promise.allSettled([bigResult(a, steps, 'A '), bigResult(b, steps, 'B ')]);
    for (const [i, call] of calls.entries())
      if (call.status === 'rejected')
        errors.push(
          `${i === 0 ? 'A' : 'B'}: ${call.reason instanceof Error ? call.reason.message : String(call.reason)}`,
        );
    return calls.every((c) => c.status === 'fulfilled');
  } finally {
    await a.close();
    await b.close();
  }
}

/** One run of `kind` on a fresh server and gateway (`port` 0: a free one; the server gets port + 100); `plain` runs
 * the two clients of `crossing`, whose calls it passes unchanged. */
export async function runGateway(
  kind: GatewayKind,
  port = 0,
): Promise<{ result: V2RunResult; recording: WireRecording }> {
  const lab = await startV2Lab(port === 0 ? 0 : port + 100);
  const gateway = await startGateway(kind, lab.url, port);
  const steps: string[] = [];
  const errors: string[] = [];
  try {
    const driver: V2Driver = { url: gateway.url, plans: [], toolsChanged: () => lab.toolsChanged() };
    const ok = await (kind === 'numbering' ? numbered : crossed)(driver, steps, errors).catch((error: unknown) => {
      errors.push(error instanceof Error ? error.message : String(error));
      return false;
    });
    await gateway.recorder.settled(5000);
    const { recorder } = gateway;
    const recording = { startedAt: recorder.startedAt, pageUrl: gateway.url, exchanges: recorder.exchanges() };
    const corrupted = steps.some((s) => s.includes('CORRUPTED'));
    return { result: { verdict: ok && !corrupted ? 'ok' : 'error', steps, errors }, recording };
  } finally {
    await gateway.close();
    await lab.close();
  }
}
