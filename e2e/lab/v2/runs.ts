// Runs in Node (v2 lab): what a real TypeScript SDK v2 client does in each recorded run, pinned to 2026-07-28
// (and, in the mixed run, a second client left at the SDK's default 2025 handshake).
import { Client, type JSONRPCMessage, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { bigResultText, streamProgressText } from '../payload';
import type { CutPlan } from './wire-tap';

/**
 * What a run needs of the lab: its endpoint, where cut plans go, and how to make the server publish
 * tools/list_changed. The Node lab (V2Lab) is one; the browser page (page/main.ts) drives the same lab over HTTP.
 */
export interface V2Driver {
  url: string;
  plans: { push(plan: CutPlan): unknown };
  toolsChanged(): unknown;
  /** The fetch the client's transport uses (the page's own, so the inspector's tap sees it). */
  fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>;
}

export const V2_CLIENT_INFO = { name: 'mcp-stream-inspector-lab-v2-client', version: '0.1.0' };
export const ASK_USER_ANSWER = 'Ada Lovelace';
/** Small enough to keep the fixture small, big enough to span many TCP reads. */
export const BIG_RESULT_BYTES = 64 * 1024;

export type V2RunName =
  'v2-clean' | 'v2-cut-not-reissued' | 'v2-cut-reissued' | 'v2-mixed-eras' | 'v2-reissued-same-id';

export interface V2RunResult {
  /** `ok`: every call the application made got the right answer; `error`: a call failed (and stayed failed). */
  verdict: 'ok' | 'error';
  /** What the application saw, in order (results checked against the tools' exact texts). */
  steps: string[];
  /** The SDK's error messages, in order. */
  errors: string[];
}

export async function connect(
  lab: V2Driver,
  era: '2026-07-28' | '2025',
  errors: string[] = [],
  transport = new StreamableHTTPClientTransport(
    new URL(lab.url),
    lab.fetch === undefined ? undefined : { fetch: lab.fetch },
  ),
): Promise<Client> {
  const client = new Client(V2_CLIENT_INFO, {
    capabilities: { elicitation: { form: {} } },
    ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
  });
  client.onerror = (error) => errors.push(`transport: ${error.message}`);
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { answer: ASK_USER_ANSWER } }));
  await client.connect(transport);
  return client;
}

export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? '').join('');
}

const PROGRESS = { count: 5, delayMs: 30 };

/** The stream_progress call the cut plans aim at: cut 40 bytes into the third event, mid-event. */
export function cutProgress(): CutPlan {
  return {
    matches: (body) => {
      const call = body as { method?: string; params?: { name?: string } } | undefined;
      return call?.method === 'tools/call' && call.params?.name === 'stream_progress';
    },
    afterEvents: 2,
    extraBytes: 40,
  };
}

/**
 * The SDK client (2.4.0) does not fail a call whose response stream broke: the transport reports the error to
 * `onerror` and the call waits for its timeout. The cut runs give it a short one.
 */
const CUT_CALL_TIMEOUT_MS = 1500;

export async function progressCall(client: Client, steps: string[], timeout?: number): Promise<void> {
  const seen: number[] = [];
  const result = await client.callTool(
    { name: 'stream_progress', arguments: PROGRESS },
    { onprogress: (p) => seen.push(p.progress), ...(timeout === undefined ? {} : { timeout }) },
  );
  const ok = textOf(result) === streamProgressText(PROGRESS);
  steps.push(`stream_progress ${ok ? 'ok' : 'CORRUPTED'} (progress ${seen.join(',')})`);
}

async function attempt(run: () => Promise<void>, errors: string[]): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (error) {
    errors.push(error instanceof Error ? error.message : String(error));
    return false;
  }
}

async function clean(lab: V2Driver, steps: string[]): Promise<void> {
  const client = await connect(lab, '2026-07-28');
  try {
    await progressCall(client, steps);
    const big = await client.callTool({ name: 'big_result', arguments: { sizeBytes: BIG_RESULT_BYTES } });
    steps.push(`big_result ${textOf(big) === bigResultText(BIG_RESULT_BYTES) ? 'ok' : 'CORRUPTED'}`);
    const asked = await client.callTool({ name: 'ask_user', arguments: { question: 'Who wrote the first program?' } });
    steps.push(`ask_user ${textOf(asked).includes(ASK_USER_ANSWER) ? 'ok' : 'CORRUPTED'}`);
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/tools/list_changed', () => resolve()),
    );
    const subscription = await client.listen({ toolsListChanged: true });
    await lab.toolsChanged();
    await changed;
    steps.push(`listen acknowledged ${JSON.stringify(subscription.honoredFilter)}, tools/list_changed received`);
    await subscription.close();
    steps.push(`listen closed ${await subscription.closed}`);
  } finally {
    await client.close();
  }
}

async function cut(lab: V2Driver, steps: string[], errors: string[], reissue: boolean): Promise<boolean> {
  lab.plans.push(cutProgress());
  const client = await connect(lab, '2026-07-28', errors);
  try {
    if (await attempt(() => progressCall(client, steps, CUT_CALL_TIMEOUT_MS), errors)) return true;
    steps.push('stream_progress failed: its response stream was cut');
    if (!reissue) return false;
    // The SDK does not re-issue; the application does, and the SDK gives the new request a new id.
    return await attempt(() => progressCall(client, steps), errors);
  } finally {
    await client.close();
  }
}

/**
 * The cut, and an application that "retries" below the SDK: it keeps the transport, notes the tools/call message it
 * sent, and when the transport reports the broken stream it sends that message again through the transport as it
 * was, same JSON-RPC id. The SDK's call, still waiting on that id, takes the answer to the copy as its own.
 */
async function reissueSameId(lab: V2Driver, steps: string[], errors: string[]): Promise<boolean> {
  lab.plans.push(cutProgress());
  const transport = new StreamableHTTPClientTransport(
    new URL(lab.url),
    lab.fetch === undefined ? undefined : { fetch: lab.fetch },
  );
  const send = transport.send.bind(transport);
  let lost: JSONRPCMessage | undefined;
  transport.send = (message, options) => {
    if ('method' in message && message.method === 'tools/call') lost ??= message;
    return send(message, options);
  };
  const client = await connect(lab, '2026-07-28', errors, transport);
  const report = client.onerror;
  let resent = false;
  client.onerror = (error) => {
    report?.(error);
    if (resent || lost === undefined) return;
    resent = true;
    steps.push('the stream broke: the application sends the same tools/call message again');
    send(lost).catch((e: unknown) => errors.push(`re-send: ${String(e)}`));
  };
  try {
    return await attempt(() => progressCall(client, steps, CUT_CALL_TIMEOUT_MS), errors);
  } finally {
    await client.close();
  }
}

async function mixed(lab: V2Driver, steps: string[], errors: string[]): Promise<boolean> {
  const old = await connect(lab, '2025');
  try {
    steps.push('2025 client initialized');
    const cutOk = await cut(lab, steps, errors, false);
    await progressCall(old, steps);
    return cutOk;
  } finally {
    await old.close();
  }
}

/** Runs one recorded scenario against `lab` (fresh per run) and says what the application saw. */
export async function runV2(name: V2RunName, lab: V2Driver): Promise<V2RunResult> {
  const steps: string[] = [];
  const errors: string[] = [];
  let ok = true;
  if (name === 'v2-clean') await clean(lab, steps);
  else if (name === 'v2-cut-not-reissued') ok = await cut(lab, steps, errors, false);
  else if (name === 'v2-cut-reissued') ok = await cut(lab, steps, errors, true);
  else if (name === 'v2-reissued-same-id') ok = await reissueSameId(lab, steps, errors);
  else ok = await mixed(lab, steps, errors);
  const corrupted = steps.some((s) => s.includes('CORRUPTED'));
  return { verdict: ok && !corrupted ? 'ok' : 'error', steps, errors };
}
