// Runs in the demo page and in Node tests: drives the real SDK client through the lab proxy for
// one scenario and judges what it got back. Uses only fetch (no DOM, no Node APIs).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  type ClientGuard,
  type ClientGuardOptions,
  createClientGuard,
  type ResumptionRejectedError,
} from '../../../src/client-guard/index';
import { askUserText, bigResultText, checksum, streamProgressText } from '../payload';
import type { LabIdScheme, Scenario, ToolCall, Verdict } from '../scenarios';
import { callWithAiSdk } from './ai-sdk-client';
import type { FetchLike } from './fetch-like';

export interface RunOptions {
  /** The proxy's origin, e.g. http://127.0.0.1:8787 (the page passes location.origin). */
  baseUrl: string;
  /** The fetch the SDK transports use (a recording one in tests); global fetch by default. */
  fetch?: FetchLike;
  /** Tell the proxy the scenario first (POST /__lab/scenario). Default true. */
  selectScenario?: boolean;
  /** The origin's event ids for this run instead of the scenario's (the demo page's Break playground). */
  idScheme?: LabIdScheme;
  /** Called with a line of progress for the page. */
  onNote?: (note: string) => void;
  /**
   * Run the client behind the product's client guard (src/client-guard/): a refused resume closes the client,
   * re-initializes it (`guard.recover`) and calls the interrupted tool once more.
   */
  guard?: boolean;
  /** The guard's options, when guarded (its fetch and callbacks are the run's own). */
  guardOptions?: Pick<ClientGuardOptions, 'silentResumeMs' | 'maxEmptyResumes'>;
}

/** What the client guard did in a guarded run. */
export interface GuardReport {
  /** Interventions per rule id (`ClientGuard.counts`). */
  counts: Record<string, number>;
  /** Each refused resume: its rule, and how long after the call started the pending call failed. */
  rejections: { rule: string; message: string }[];
  /** Calls made again after a refusal and a re-initialize. */
  retried: string[];
}

export interface CallOutcome {
  tool: string;
  verdict: Verdict;
  detail: string;
  /** Progress values the client was told, in order. */
  progress: number[];
  elapsedMs: number;
}

export interface RunResult {
  scenario: string;
  verdict: Verdict;
  detail: string;
  calls: CallOutcome[];
  /** The session used again after the calls (probeSessionAfter): what happened. */
  probe?: { ok: boolean; detail: string };
  /** What the SDK reported through Client.onerror, in order. */
  clientErrors: string[];
  sessionId?: string;
  elapsedMs: number;
  /** Present when the run was guarded. */
  guard?: GuardReport;
}

/** The reconnection the page and tests use: on, with small delays so a scenario ends in seconds. */
export const LAB_RECONNECTION = {
  initialReconnectionDelay: 100,
  maxReconnectionDelay: 1000,
  reconnectionDelayGrowFactor: 1.5,
  maxRetries: 2,
};

const CONNECT_TIMEOUT_MS = 5000;
const PROBE_TIMEOUT_MS = 1500;
const LEGACY_PROTOCOL_VERSION = '2024-11-05';

export function expectedText(call: ToolCall, answer: string): string {
  switch (call.tool) {
    case 'stream_progress':
      return streamProgressText(call.args);
    case 'big_result':
      return bigResultText(call.args.sizeBytes);
    case 'ask_user':
      return askUserText(answer);
    case 'consent_required':
      return 'never: the tool answers an error';
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** An old client: asks for protocol 2024-11-05 in initialize (the SDK client always asks for its latest). */
function legacyProtocolFetch(inner: FetchLike): FetchLike {
  return (url, init) => {
    if (typeof init?.body !== 'string') return inner(url, init);
    const body = JSON.parse(init.body) as { method?: string; params?: { protocolVersion?: string } };
    if (body.method !== 'initialize' || !body.params) return inner(url, init);
    body.params.protocolVersion = LEGACY_PROTOCOL_VERSION;
    return inner(url, { ...init, body: JSON.stringify(body) });
  };
}

function createTransport(scenario: Scenario, baseUrl: string, fetchFn: FetchLike): Transport {
  if (scenario.transport === 'sse-legacy') {
    return new SSEClientTransport(new URL('/sse', baseUrl), { fetch: legacyProtocolFetch(fetchFn) });
  }
  return new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    fetch: fetchFn,
    reconnectionOptions: { ...LAB_RECONNECTION, ...scenario.reconnection },
  });
}

function compare(text: string, expected: string): { verdict: Verdict; detail: string } {
  if (text === expected)
    return { verdict: 'ok', detail: `intact: ${text.length} characters, checksum ${checksum(text)}` };
  let at = 0;
  while (at < text.length && at < expected.length && text[at] === expected[at]) at++;
  return {
    verdict: 'corrupted',
    detail: `got ${text.length} characters, expected ${expected.length}; first difference at ${at}`,
  };
}

async function callTool(client: Client, call: ToolCall, scenario: Scenario): Promise<CallOutcome> {
  const started = Date.now();
  const progress: number[] = [];
  const outcome = (verdict: Verdict, detail: string): CallOutcome => ({
    tool: call.tool,
    verdict,
    detail,
    progress,
    elapsedMs: Date.now() - started,
  });
  try {
    const result = await client.callTool({ name: call.tool, arguments: { ...call.args } }, undefined, {
      timeout: scenario.callTimeoutMs,
      onprogress: (update) => progress.push(update.progress),
    });
    const content = Array.isArray(result.content) ? result.content : [];
    const first = content[0] as { type?: string; text?: unknown } | undefined;
    const text = first?.type === 'text' && typeof first.text === 'string' ? first.text : '';
    if (result.isError) return outcome('error', `tool error: ${text}`);
    const judged = compare(text, expectedText(call, scenario.elicitation.answer));
    return outcome(judged.verdict, judged.detail);
  } catch (error) {
    if (error instanceof McpError && (error.code as ErrorCode) === ErrorCode.RequestTimeout) {
      return outcome('hung', `no answer within ${scenario.callTimeoutMs} ms`);
    }
    return outcome('error', message(error));
  }
}

async function probe(client: Client): Promise<{ ok: boolean; detail: string }> {
  try {
    const tools = await client.listTools(undefined, { timeout: PROBE_TIMEOUT_MS });
    return { ok: true, detail: `tools/list answered (${tools.tools.length} tools)` };
  } catch (error) {
    return { ok: false, detail: message(error) };
  }
}

export async function selectScenario(
  baseUrl: string,
  name: string,
  fetchFn: FetchLike = fetch,
  idScheme?: LabIdScheme,
): Promise<void> {
  const response = await fetchFn(new URL('/__lab/scenario', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, ...(idScheme && { idScheme }) }),
  });
  if (!response.ok) throw new Error(`the lab refused scenario ${name}: ${response.status} ${await response.text()}`);
  await response.body?.cancel();
}

/** A scenario whose client is @ai-sdk/mcp: its calls, judged as the SDK client's are. */
async function runWithAiSdk(
  scenario: Scenario,
  baseUrl: string,
  fetchFn: FetchLike,
  guard: ClientGuard | undefined,
): Promise<RunResult> {
  const started = Date.now();
  const { outcomes, clientErrors } = await callWithAiSdk(
    new URL('/mcp', baseUrl).href,
    guard?.fetch ?? fetchFn,
    scenario.calls,
    scenario.callTimeoutMs,
  );
  const calls = outcomes.map((outcome, index): CallOutcome => {
    const call = scenario.calls[index] as ToolCall;
    const judged =
      outcome.text !== undefined
        ? compare(outcome.text, expectedText(call, scenario.elicitation.answer))
        : outcome.timedOut
          ? { verdict: 'hung' as const, detail: `no answer within ${scenario.callTimeoutMs} ms` }
          : { verdict: 'error' as const, detail: outcome.error ?? 'no result' };
    // @ai-sdk/mcp sends no progress token: the server sends no progress to tell.
    return { tool: outcome.tool, ...judged, progress: [], elapsedMs: outcome.elapsedMs };
  });
  const failed = calls.find((call) => call.verdict !== 'ok');
  const detail = failed ? `${failed.tool}: ${failed.detail}` : calls.map((c) => `${c.tool}: ${c.detail}`).join('; ');
  return {
    scenario: scenario.name,
    verdict: failed?.verdict ?? 'ok',
    detail,
    calls,
    clientErrors,
    elapsedMs: Date.now() - started,
    ...(guard && { guard: { counts: guard.counts(), rejections: [], retried: [] } }),
  };
}

export async function runScenario(scenario: Scenario, options: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const fetchFn: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  const note = options.onNote ?? (() => undefined);
  if (options.selectScenario !== false) await selectScenario(options.baseUrl, scenario.name, fetchFn, options.idScheme);
  const rejections: ResumptionRejectedError[] = [];
  let recovering: Promise<void> | undefined;
  const guard = options.guard
    ? createClientGuard({
        ...options.guardOptions,
        fetch: fetchFn,
        onFinding: (finding) => note(`guard: ${finding.action} (${finding.rule}): ${finding.message}`),
        // Outside the guard's own stack: recovering closes the transport whose body the guard is reading.
        onRejected: (error) => {
          rejections.push(error);
          recovering ??= Promise.resolve().then(() =>
            guard?.recover(client, async () => {
              transport = createTransport(scenario, options.baseUrl, clientFetch);
              await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
              note(`re-initialized after ${error.rule}: session ${transport.sessionId ?? 'none'}`);
            }),
          );
        },
      })
    : undefined;
  const clientFetch = guard?.fetch ?? fetchFn;
  if (scenario.client === 'ai-sdk-mcp') return runWithAiSdk(scenario, options.baseUrl, fetchFn, guard);

  const clientErrors: string[] = [];
  const client = new Client(
    { name: 'mcp-stream-inspector-lab-client', version: '0.1.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.onerror = (error) => clientErrors.push(error.message);
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    note(`elicitation: "${request.params.message}"`);
    await wait(scenario.elicitation.delayMs);
    return { action: 'accept', content: { answer: scenario.elicitation.answer } };
  });

  let transport = createTransport(scenario, options.baseUrl, clientFetch);
  const retried: string[] = [];
  const result = (verdict: Verdict, detail: string, calls: CallOutcome[], probed?: RunResult['probe']): RunResult => ({
    scenario: scenario.name,
    verdict,
    detail,
    calls,
    probe: probed,
    clientErrors,
    sessionId: transport.sessionId,
    elapsedMs: Date.now() - started,
    ...(guard && {
      guard: {
        counts: guard.counts(),
        rejections: rejections.map((error) => ({ rule: error.rule, message: error.message })),
        retried,
      },
    }),
  });

  try {
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    } catch (error) {
      return result('error', `connect failed: ${message(error)}`, []);
    }
    note(`connected (${transport.sessionId ? `session ${transport.sessionId}` : 'no session id'})`);
    const calls: CallOutcome[] = [];
    for (const call of scenario.calls) {
      note(`calling ${call.tool}`);
      let outcome = await callTool(client, call, scenario);
      if (outcome.verdict !== 'ok' && recovering) {
        // The guard refused a resume of this call's stream: the re-initialized session makes the call again.
        await recovering;
        recovering = undefined;
        retried.push(call.tool);
        const first = outcome;
        outcome = await callTool(client, call, scenario);
        outcome = { ...outcome, detail: `after "${first.detail}", re-initialized and called again: ${outcome.detail}` };
      }
      calls.push(outcome);
      note(`${call.tool}: ${outcome.verdict} (${outcome.detail})`);
      if (outcome.verdict !== 'ok') break;
    }
    const probed = scenario.probeSessionAfter ? await probe(client) : undefined;
    if (scenario.lingerMs !== undefined) await wait(scenario.lingerMs);
    const failed = calls.find((call) => call.verdict !== 'ok');
    const detail = failed
      ? `${failed.tool}: ${failed.detail}`
      : calls.map((call) => `${call.tool}: ${call.detail}`).join('; ');
    return result(failed?.verdict ?? 'ok', detail, calls, probed);
  } finally {
    await client.close();
  }
}
