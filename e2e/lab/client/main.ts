// Runs in the demo page (browser): the scenario table, a button per scenario, and
// window.__lab for tests. Everything shown is set as text, never as HTML.
import { wireSignature, type WireSignature } from '../../../src/panel/view/wireSignature';
import type { LabLogEntry } from '../proxy/fault-run';
import {
  applyVariant,
  findScenario,
  type Scenario,
  type ScenarioVariant,
  scenarios,
  type ToolCall,
  type Verdict,
} from '../scenarios';
import { recordingFetch } from './recording-fetch';
import { type AiSdkRun, runAiSdkClient } from './ai-sdk-client';
import { type PeerRun, runAgainstPeer } from './peer-client';
import { runScenario, selectScenario, type RunResult } from './run-scenario';
import { runUseMcp, type UseMcpRun } from './use-mcp-client';

export interface LabPageResult extends RunResult {
  /** What the proxy says it applied during the run. */
  applied: string[];
}

export interface LabPageApi {
  scenarios: readonly Scenario[];
  /**
   * `variant` changes this run only: its calls (e.g. a smaller big_result for the fixtures), or the client behind the
   * client guard (`{ guard: true }`).
   */
  run(name: string, variant?: ScenarioVariant): Promise<LabPageResult>;
  /**
   * What this page's fetch saw of its MCP traffic since it loaded, counted as the panel counts its records: the
   * panel has caught up with the page when its signature is the same.
   */
  wire(): WireSignature;
  /**
   * The Break playground: one tool call on a fault-free origin with integer ids, so whatever breaks it is the
   * panel's Break menu (the tap applies the fault in this page).
   */
  callTool(tool: PlaygroundTool): Promise<LabPageResult>;
  /** What this page's client received of each MCP exchange since it loaded (through the inspector's tap). */
  received(): ReceivedExchange[];
  /**
   * An AI chat turn: a fake LLM completion streams (OpenAI-style, not MCP) while the page's MCP client calls a
   * tool beside it, as chat pages do.
   */
  chat(): Promise<ChatTurn>;
  /** The Vercel AI SDK's MCP client (`@ai-sdk/mcp`) lists the tools and calls one, on the fault-free origin. */
  aiSdk(): Promise<AiSdkRun>;
  /**
   * `use-mcp` (the React hook) connects, calls a tool, unmounts. The page's fetch is this page's recorder from then on
   * (the hook takes no fetch of its own), so `wire()` counts its traffic too.
   */
  useMcp(): Promise<UseMcpRun>;
  /** The official SDK client against another MCP server (its endpoint URL; the reference `server-everything`). */
  peer(mcpUrl: string): Promise<PeerRun>;
}

export interface ChatTurn {
  /** The completion's text, joined from its deltas. */
  answer: string;
  tool: LabPageResult;
}

export interface ReceivedExchange {
  method: string;
  lastEventId?: string;
  status?: number;
  /** The body as text (MCP bodies are UTF-8 JSON or event streams). */
  body: string;
}

export type PlaygroundTool = 'stream_progress' | 'stream_progress_long' | 'stream_progress_slow' | 'big_result';

/**
 * The calls the playground's buttons make: six progress events, or a 256 KiB result in two steps. The long form (tests
 * of a cut) keeps its stream open seconds past the struck event, so the server is still writing when the close comes.
 */
const PLAYGROUND_CALLS: Record<PlaygroundTool, ToolCall> = {
  stream_progress: { tool: 'stream_progress', args: { count: 6, delayMs: 80 } },
  stream_progress_long: { tool: 'stream_progress', args: { count: 30, delayMs: 80 } },
  // A tool that thinks: 5 s before each of its two progress notifications, the stream silent meanwhile (a hang to see).
  stream_progress_slow: { tool: 'stream_progress', args: { count: 2, delayMs: 5000 } },
  big_result: { tool: 'big_result', args: { sizeBytes: 256 * 1024, progressSteps: 2 } },
};

declare global {
  interface Window {
    __lab: LabPageApi;
  }
}

const base = window.location.origin;
const rows = new Map<string, { verdict: HTMLElement; detail: HTMLElement; button: HTMLButtonElement }>();
const notes = document.getElementById('notes') as HTMLPreElement;
let queue: Promise<unknown> = Promise.resolve();
// Over the page's fetch as it is at each call (the inspector's tap, when installed): records what the client got.
// Once use-mcp has run, window.fetch is the recorder itself: the recorder then calls the fetch it replaced.
let replacedFetch: typeof fetch | undefined;
const recorder = recordingFetch(
  (url, init) => (replacedFetch ?? fetch)(url, init),
  (url) => !url.pathname.startsWith('/__lab/'),
);

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text = '', className = ''): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function note(line: string): void {
  notes.textContent = `${notes.textContent ?? ''}${line}\n`;
}

function describeEntry(entry: LabLogEntry): string {
  const detail = Object.entries(entry.detail)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(' ');
  return `${entry.action} ${detail}`;
}

async function appliedFaults(): Promise<string[]> {
  const response = await fetch(`${base}/__lab/log`);
  const body = (await response.json()) as { entries: LabLogEntry[] };
  return body.entries.filter((entry) => entry.action !== 'scenario').map(describeEntry);
}

function show(name: string, verdict: Verdict | 'running', detail: string): void {
  const row = rows.get(name);
  if (!row) return;
  row.verdict.textContent = verdict;
  row.verdict.className = `verdict ${verdict}`;
  row.detail.textContent = detail;
}

async function runOne(name: string, variant?: ScenarioVariant): Promise<LabPageResult> {
  const found = findScenario(name);
  if (!found) throw new Error(`unknown scenario ${name}`);
  const scenario = applyVariant(found, variant);
  notes.textContent = '';
  note(`${scenario.name}: ${scenario.description}`);
  show(name, 'running', '');
  const buttons = [...rows.values()].map((row) => row.button);
  buttons.forEach((button) => (button.disabled = true));
  try {
    const result = await runScenario(scenario, {
      baseUrl: base,
      fetch: recorder.fetch,
      onNote: note,
      ...(variant?.guard && { guard: true }),
    });
    const applied = await appliedFaults();
    applied.forEach((line) => note(`proxy: ${line}`));
    result.clientErrors.forEach((line) => note(`client error: ${line}`));
    if (result.probe) note(`session used again: ${result.probe.detail}`);
    note(`verdict: ${result.verdict} (${result.detail})`);
    show(name, result.verdict, result.detail);
    return { ...result, applied };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    show(name, 'error', detail);
    note(`failed: ${detail}`);
    return { scenario: name, verdict: 'error', detail, calls: [], clientErrors: [], elapsedMs: 0, applied: [] };
  } finally {
    buttons.forEach((button) => (button.disabled = false));
  }
}

async function callOne(tool: PlaygroundTool): Promise<LabPageResult> {
  const clean = findScenario('clean') as Scenario;
  const call = PLAYGROUND_CALLS[tool];
  // Room for the tool's own pace: its progress steps, and 3 s more.
  const pace = call.tool === 'stream_progress' ? call.args.count * call.args.delayMs : 0;
  const scenario: Scenario = { ...clean, calls: [call], callTimeoutMs: 3000 + pace };
  const status = document.getElementById('playground-result') as HTMLElement;
  status.textContent = `calling ${tool}…`;
  notes.textContent = '';
  note(`playground: ${tool} on a fault-free origin (integer ids); faults come from the panel's Break menu only`);
  try {
    const result = await runScenario(scenario, {
      baseUrl: base,
      fetch: recorder.fetch,
      onNote: note,
      idScheme: 'integer',
    });
    result.clientErrors.forEach((line) => note(`client error: ${line}`));
    note(`verdict: ${result.verdict} (${result.detail})`);
    status.textContent = `${tool}: ${result.verdict}${result.clientErrors.length ? ` after ${result.clientErrors.length} client error(s)` : ''}`;
    return { ...result, applied: [] };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    status.textContent = `${tool}: error (${detail})`;
    return { scenario: 'clean', verdict: 'error', detail, calls: [], clientErrors: [], elapsedMs: 0, applied: [] };
  }
}

/** Reads an OpenAI-style completion stream whole and joins its deltas. */
async function readCompletion(): Promise<string> {
  const body = JSON.stringify({
    model: 'lab-fake-llm',
    stream: true,
    messages: [{ role: 'user', content: 'Weather?' }],
  });
  const response = await recorder.fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  let answer = '';
  for (const line of (await response.text()).split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const chunk = JSON.parse(line.slice(6)) as { choices: { delta: { content?: string } }[] };
    answer += chunk.choices[0]?.delta.content ?? '';
  }
  return answer;
}

async function aiSdk(): Promise<AiSdkRun> {
  const next = queue.then(async () => {
    await selectScenario(base, 'clean', recorder.fetch, 'integer');
    return runAiSdkClient(`${base}/mcp`, recorder.fetch);
  });
  queue = next.catch(() => undefined);
  return next;
}

function useMcpClient(): Promise<UseMcpRun> {
  const next = queue.then(async () => {
    await selectScenario(base, 'clean', recorder.fetch, 'integer');
    // From the first run on, window.fetch stays the recorder: the SDK under the hook goes on resuming finished
    // streams after the unmount (its reconnect timers outlive the hook), and with window.fetch restored those later
    // requests reached the tap but not the page's record (a loaded CI run: panel 10 connections, page 8).
    if (replacedFetch === undefined) {
      replacedFetch = window.fetch;
      window.fetch = (input, init) => recorder.fetch(input instanceof Request ? input.url : input, init);
    }
    return runUseMcp(`${base}/mcp`);
  });
  queue = next.catch(() => undefined);
  return next;
}

function peer(mcpUrl: string): Promise<PeerRun> {
  const next = queue.then(() => runAgainstPeer(mcpUrl, recorder.fetch));
  queue = next.catch(() => undefined);
  return next;
}

async function chat(): Promise<ChatTurn> {
  const completion = readCompletion();
  const tool = callTool('stream_progress');
  return { answer: await completion, tool: await tool };
}

function callTool(tool: PlaygroundTool): Promise<LabPageResult> {
  const next = queue.then(() => callOne(tool));
  queue = next.catch(() => undefined);
  return next;
}

/** Runs one at a time: the proxy holds one scenario. */
function run(name: string, variant?: ScenarioVariant): Promise<LabPageResult> {
  const next = queue.then(() => runOne(name, variant));
  queue = next.catch(() => undefined);
  return next;
}

function renderTable(): void {
  const body = document.querySelector('#scenarios tbody') as HTMLTableSectionElement;
  for (const scenario of scenarios) {
    const tr = element('tr');
    tr.dataset['scenario'] = scenario.name;
    const name = element('td', '', 'name');
    name.append(element('strong', scenario.title), element('code', scenario.name));
    const what = element('td', scenario.description);
    const rules = element('td', scenario.expected.must.length ? '' : 'no error or warning', 'rules');
    scenario.expected.must.forEach((rule) => rules.append(element('code', rule)));
    const result = element('td', '', 'result');
    const verdict = element('span', 'not run', 'verdict');
    const detail = element('span', '', 'detail');
    result.append(verdict, detail);
    const action = element('td');
    const button = element('button', 'Run');
    button.type = 'button';
    button.addEventListener('click', () => void run(scenario.name));
    action.append(button);
    tr.append(name, what, rules, result, action);
    body.append(tr);
    rows.set(scenario.name, { verdict, detail, button });
  }
}

renderTable();
(document.getElementById('endpoint') as HTMLElement).textContent = `${base}/mcp`;
(document.getElementById('run-all') as HTMLButtonElement).addEventListener('click', () => {
  void scenarios.reduce<Promise<unknown>>(
    (previous, scenario) => previous.then(() => run(scenario.name)),
    Promise.resolve(),
  );
});
(document.getElementById('use-mcp') as HTMLButtonElement).addEventListener('click', () => {
  void useMcpClient().then((run) => note(run.error ? `use-mcp failed: ${run.error}` : `use-mcp: ${run.text}`));
});
(document.getElementById('ai-sdk') as HTMLButtonElement).addEventListener('click', () => {
  void aiSdk().then((run) => note(run.error ? `@ai-sdk/mcp failed: ${run.error}` : `@ai-sdk/mcp: ${run.text}`));
});
(document.getElementById('chat-turn') as HTMLButtonElement).addEventListener('click', () => {
  void chat().then((turn) => note(`LLM answered: ${turn.answer}`));
});
for (const button of document.querySelectorAll<HTMLButtonElement>('#playground button[data-tool]')) {
  button.addEventListener('click', () => void callTool(button.dataset['tool'] as PlaygroundTool));
}
function received(): ReceivedExchange[] {
  const decoder = new TextDecoder();
  return recorder.connections.map((c) => {
    const lastEventId = c.requestHeaders.find((h) => h.name.toLowerCase() === 'last-event-id')?.value;
    const bytes = new Uint8Array(c.chunks.reduce((n, chunk) => n + chunk.bytes.byteLength, 0));
    let at = 0;
    for (const chunk of c.chunks) {
      bytes.set(chunk.bytes, at);
      at += chunk.bytes.byteLength;
    }
    return {
      method: c.method,
      ...(lastEventId !== undefined && { lastEventId }),
      ...(c.status !== undefined && { status: c.status }),
      body: decoder.decode(bytes),
    };
  });
}

window.__lab = {
  scenarios,
  run,
  wire: () => wireSignature(recorder.connections),
  callTool,
  received,
  chat,
  aiSdk,
  useMcp: useMcpClient,
  peer,
};
