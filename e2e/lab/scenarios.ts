// Runs in Node and in the demo page: the lab's scenarios as data (what the origin is, what the
// client does, what the guard must find). No Node or DOM APIs.
import type { AskUserArgs, BigResultArgs, ConsentRequiredArgs, StreamProgressArgs } from './payload';

export const scenarioNames = [
  'clean',
  'cut-mid-event',
  'replay-boundary',
  'evicted-fresh-event',
  'epoch-restart-clamp',
  'epoch-restart-fresh',
  'skip-on-resume',
  'resume-409',
  'resume-404',
  'orphaned-elicitation',
  'legacy-sse',
  'resume-after-error',
  'server-close-resumed',
  'server-close-not-resumed',
  'ai-sdk-close-not-resumed',
] as const;

export type ScenarioName = (typeof scenarioNames)[number];

export type LabTransport = 'streamable' | 'sse-legacy';

/** The page's MCP client: the official SDK 1.32 (`@modelcontextprotocol/sdk`), or the Vercel AI SDK's `@ai-sdk/mcp`. */
export type LabClient = 'sdk' | 'ai-sdk-mcp';

/** As the fixtures' notes name them. */
export const LAB_CLIENT_NAMES: Record<LabClient, string> = { sdk: 'SDK 1.32', 'ai-sdk-mcp': '@ai-sdk/mcp 2.0' };

/** Spelled as the core's IdScheme (src/core/model/types.ts). */
export type LabIdScheme = 'sdk-stream' | 'integer' | 'epoch-seq' | 'none';

/** What the client got back: intact result, wrong result, no answer in time, or an error. */
export type Verdict = 'ok' | 'corrupted' | 'hung' | 'error';

export type ToolCall =
  | { tool: 'stream_progress'; args: StreamProgressArgs }
  | { tool: 'big_result'; args: BigResultArgs }
  | { tool: 'ask_user'; args: AskUserArgs }
  | { tool: 'consent_required'; args: ConsentRequiredArgs };

/** A bounded store: `slots` slots of `slotBytes` each; a big event takes several. */
export interface RingSettings {
  slots: number;
  slotBytes: number;
  /** What the store does when the resume cursor was evicted. */
  onEvictedCursor: 'reject' | 'republish';
}

export interface OriginSettings {
  idScheme: LabIdScheme;
  ring?: RingSettings;
}

export interface Scenario {
  name: ScenarioName;
  title: string;
  description: string;
  transport: LabTransport;
  /** Who makes the calls; the official SDK client unless said. */
  client?: LabClient;
  origin: OriginSettings;
  calls: ToolCall[];
  /** How the client answers elicitation: after `delayMs` (the "user" thinking), with `answer`. */
  elicitation: { answer: string; delayMs: number };
  /** After the calls, use the same session once more (shows whether the client re-initializes). */
  probeSessionAfter: boolean;
  /** A call without an answer after this long is `hung`. */
  callTimeoutMs: number;
  /** Guard rule ids that must and must not be reported on the capture of this scenario. */
  expected: { must: string[]; mustNot: string[] };
  /** What the scenario's real client ends with (asserted by the lab tests). */
  clientVerdict: Verdict;
  /** After the calls, the application keeps the client this long before closing it: what it does alone shows. */
  lingerMs?: number;
  /** The client's reconnection options, when not the lab's usual ones (LAB_RECONNECTION). */
  reconnection?: { maxRetries: number };
}

const progress = (count: number, delayMs = 60): ToolCall => ({ tool: 'stream_progress', args: { count, delayMs } });
const autoAnswer = { answer: 'blue', delayMs: 0 };

/** Rules that flag a broken resume; a scenario without a resume must report none of them. */
const resumeHazards = [
  'torn-event-reconnect',
  'replayed-event-duplicate',
  'resume-id-gap',
  'resume-not-honored',
  'epoch-mismatch',
  'cross-stream-replay',
  'duplicate-id-across-streams',
];
const sessionHazards = [
  'incomplete-json',
  'resumption-rejected',
  'stale-cursor-retry',
  'orphaned-server-request',
  'unsolicited-response',
  'session-not-reinitialized',
  // The SDK 1.32 client speaks 2025-11-25 from the start: it never probes 2026-07-28.
  'version-fallback',
];
/** How the client reconnects: a clean run, or a fault the client handles as the spec says, reports none of them. */
const reconnectHazards = ['resume-after-answer', 'retry-ignored', 'reconnect-storm', 'post-stream-not-resumed'];
const allHazards = [...resumeHazards, ...sessionHazards, ...reconnectHazards];
const except = (ids: string[]): string[] => allHazards.filter((id) => !ids.includes(id));

/** A tools/call whose stream the server closes after progress 2 (2025-11-25 polling); the work goes on. */
const polling = (count: number): ToolCall => ({
  tool: 'stream_progress',
  args: { count, delayMs: 60, closeStreamAfter: 2 },
});

/** How the SDK 1.32 client reconnects, recorded: after an error answer, and when the server closes its stream. */
export const scenarios: readonly Scenario[] = [
  {
    name: 'clean',
    title: 'Clean control',
    description: 'No fault: progress, a 1 MiB result and an answered elicitation, ids from the SDK example store.',
    transport: 'streamable',
    origin: { idScheme: 'sdk-stream' },
    calls: [
      progress(5),
      { tool: 'big_result', args: { sizeBytes: 1 << 20 } },
      { tool: 'ask_user', args: { question: 'Favourite colour?' } },
    ],
    elicitation: autoAnswer,
    probeSessionAfter: false,
    callTimeoutMs: 4000,
    expected: { must: [], mustNot: allHazards },
    clientVerdict: 'ok',
  },
  {
    name: 'cut-mid-event',
    title: 'Cut mid-event, correct replay',
    description:
      'The POST stream is cut 60 bytes into progress 3; the client resumes with Last-Event-ID and the origin replays the interrupted event whole, same id.',
    transport: 'streamable',
    origin: { idScheme: 'sdk-stream' },
    calls: [progress(6)],
    elicitation: autoAnswer,
    probeSessionAfter: false,
    callTimeoutMs: 3000,
    expected: { must: ['torn-event-reconnect'], mustNot: except(['torn-event-reconnect']) },
    clientVerdict: 'ok',
  },
  {
    name: 'replay-boundary',
    title: 'Replay from the event boundary',
    description:
      'The POST stream is cut after progress 2; on resume the last delivered event comes again (same id, same payload) before the continuation.',
    transport: 'streamable',
    origin: { idScheme: 'sdk-stream' },
    calls: [progress(6)],
    elicitation: autoAnswer,
    probeSessionAfter: false,
    callTimeoutMs: 3000,
    expected: {
      must: ['replayed-event-duplicate'],
      // The cursor's own event echoed, then the continuation: a duplicate, not a restart (the field report's boundary).
      mustNot: [
        'resume-not-honored',
        'torn-event-reconnect',
        'epoch-mismatch',
        'incomplete-json',
        'resumption-rejected',
        'orphaned-server-request',
      ],
    },
    clientVerdict: 'ok',
  },
  {
    name: 'evicted-fresh-event',
    title: 'Evicted buffer, fresh event',
    description:
      'A 1 MiB result is cut 256 KiB in; the ring buffer has evicted the cursor, so the origin re-sends the whole result under a new id.',
    transport: 'streamable',
    origin: { idScheme: 'integer', ring: { slots: 16, slotBytes: 16384, onEvictedCursor: 'republish' } },
    calls: [{ tool: 'big_result', args: { sizeBytes: 1 << 20, progressSteps: 2 } }],
    elicitation: autoAnswer,
    probeSessionAfter: false,
    callTimeoutMs: 4000,
    expected: {
      must: ['torn-event-reconnect', 'resume-id-gap'],
      mustNot: ['epoch-mismatch', 'incomplete-json', 'resumption-rejected', 'orphaned-server-request'],
    },
    clientVerdict: 'ok',
  },
  {
    name: 'epoch-restart-clamp',
    title: 'Rolling restart, clamped replay',
    description:
      'The POST stream is cut after progress 2 and the origin restarts with a new epoch; the new instance clamps the foreign cursor and replays its own ids from 1.',
    transport: 'streamable',
    origin: { idScheme: 'epoch-seq' },
    calls: [progress(8)],
    elicitation: autoAnswer,
    probeSessionAfter: false,
    callTimeoutMs: 2500,
    // The clamped replay includes the new instance's stored priming event, which the SDK writes
    // back as `data: {}`: incomplete-json may rightly show up too.
    expected: {
      must: ['epoch-mismatch', 'resume-not-honored'],
      mustNot: ['torn-event-reconnect', 'replayed-event-duplicate'],
    },
    clientVerdict: 'hung',
  },
  {
    name: 'epoch-restart-fresh',
    title: 'Rolling restart, fresh stream',
    description:
      'The POST stream is cut after progress 2 and the origin restarts with a new epoch; the new instance answers the resume with a fresh stream, the call is lost.',
    transport: 'streamable',
    origin: { idScheme: 'epoch-seq' },
    calls: [progress(8)],
    elicitation: autoAnswer,
    probeSessionAfter: false,
    callTimeoutMs: 2500,
    expected: { must: ['epoch-mismatch', 'resume-not-honored'], mustNot: ['torn-event-reconnect', 'incomplete-json'] },
    clientVerdict: 'hung',
  },
  {
    name: 'skip-on-resume',
    title: 'Events skipped on resume',
    description: 'Integer ids; the POST stream is cut after progress 2 and the resumed stream skips the next 2 events.',
    transport: 'streamable',
    origin: { idScheme: 'integer' },
    calls: [progress(8)],
    elicitation: autoAnswer,
    probeSessionAfter: false,
    callTimeoutMs: 3000,
    expected: {
      must: ['resume-id-gap'],
      mustNot: [
        'torn-event-reconnect',
        'replayed-event-duplicate',
        'epoch-mismatch',
        'incomplete-json',
        'resumption-rejected',
      ],
    },
    clientVerdict: 'ok',
  },
  {
    name: 'resume-409',
    title: 'Resume rejected with 409',
    description:
      'The POST stream is cut after progress 2; every resume with that cursor is answered 409 with Retry-After.',
    transport: 'streamable',
    origin: { idScheme: 'integer' },
    calls: [progress(8)],
    elicitation: autoAnswer,
    probeSessionAfter: false,
    callTimeoutMs: 2500,
    expected: {
      must: ['resumption-rejected', 'stale-cursor-retry', 'unanswered-after-disconnect'],
      mustNot: [
        'torn-event-reconnect',
        'replayed-event-duplicate',
        'resume-id-gap',
        'epoch-mismatch',
        'incomplete-json',
      ],
    },
    clientVerdict: 'hung',
  },
  {
    name: 'resume-404',
    title: 'Session gone (404)',
    description:
      'The POST stream is cut after progress 2 and the origin forgets the session; the resume gets 404, and the client then uses the session again.',
    transport: 'streamable',
    origin: { idScheme: 'integer' },
    calls: [progress(8)],
    elicitation: autoAnswer,
    probeSessionAfter: true,
    callTimeoutMs: 2500,
    expected: {
      must: ['resumption-rejected', 'session-not-reinitialized', 'unanswered-after-disconnect'],
      mustNot: [
        'torn-event-reconnect',
        'replayed-event-duplicate',
        'resume-id-gap',
        'epoch-mismatch',
        'incomplete-json',
      ],
    },
    clientVerdict: 'hung',
  },
  {
    name: 'orphaned-elicitation',
    title: 'Orphaned elicitation',
    description:
      'The stream carrying an elicitation request is lost before the user answers, and the session is gone: the answer never reaches the server.',
    transport: 'streamable',
    origin: { idScheme: 'integer' },
    calls: [{ tool: 'ask_user', args: { question: 'Deploy to production?' } }],
    elicitation: { answer: 'yes', delayMs: 400 },
    probeSessionAfter: false,
    callTimeoutMs: 2500,
    expected: {
      must: ['orphaned-server-request', 'unanswered-after-disconnect'],
      mustNot: ['torn-event-reconnect', 'epoch-mismatch', 'incomplete-json'],
    },
    clientVerdict: 'hung',
  },
  {
    name: 'legacy-sse',
    title: 'HTTP+SSE (2024-11-05)',
    description: 'The deprecated transport: GET /sse with the endpoint event, POST /messages; no fault.',
    transport: 'sse-legacy',
    origin: { idScheme: 'none' },
    calls: [progress(4), { tool: 'ask_user', args: { question: 'Favourite colour?' } }],
    elicitation: autoAnswer,
    probeSessionAfter: false,
    callTimeoutMs: 3000,
    expected: { must: [], mustNot: allHazards },
    clientVerdict: 'ok',
  },
  {
    name: 'resume-after-error',
    title: 'Resume after an error answer',
    description:
      'A tool answers a JSON-RPC error (-32042, URL elicitation required) on its SSE stream; the SDK client counts only a success as the answer, so it resumes the finished stream with the error event id, and the server holds that GET open.',
    transport: 'streamable',
    origin: { idScheme: 'sdk-stream' },
    calls: [{ tool: 'consent_required', args: { url: 'http://127.0.0.1/consent' } }],
    elicitation: autoAnswer,
    probeSessionAfter: false,
    callTimeoutMs: 3000,
    expected: { must: ['resume-after-answer'], mustNot: except(['resume-after-answer']) },
    clientVerdict: 'error',
    lingerMs: 800,
  },
  {
    name: 'server-close-resumed',
    title: 'Server closes the stream, client resumes',
    description:
      'The server closes the tools/call stream after progress 2 (2025-11-25 polling, retry: 150); the client resumes it after the retry time and gets the rest.',
    transport: 'streamable',
    origin: { idScheme: 'sdk-stream' },
    calls: [polling(5)],
    elicitation: autoAnswer,
    probeSessionAfter: false,
    callTimeoutMs: 3000,
    expected: { must: [], mustNot: allHazards },
    clientVerdict: 'ok',
  },
  {
    name: 'server-close-not-resumed',
    title: 'Server closes the stream, client never resumes',
    description:
      'The same polling server; the client is set to never reconnect (maxRetries 0), as clients that never resume POST streams do: the call waits for its timeout, then the SDK cancels it.',
    transport: 'streamable',
    origin: { idScheme: 'sdk-stream' },
    calls: [polling(5)],
    elicitation: autoAnswer,
    probeSessionAfter: false,
    callTimeoutMs: 1500,
    expected: {
      must: ['retry-ignored', 'unanswered-after-disconnect'],
      mustNot: except(['retry-ignored']),
    },
    clientVerdict: 'hung',
    reconnection: { maxRetries: 0 },
  },
  {
    name: 'ai-sdk-close-not-resumed',
    title: 'Server closes the stream, @ai-sdk/mcp never resumes it',
    description:
      "The same polling server; the client is the Vercel AI SDK's @ai-sdk/mcp with its defaults, which reads a POST stream to its end and never resumes it: the call waits for its timeout and nothing tells the server to stop.",
    transport: 'streamable',
    client: 'ai-sdk-mcp',
    origin: { idScheme: 'sdk-stream' },
    calls: [polling(5)],
    elicitation: autoAnswer,
    probeSessionAfter: false,
    callTimeoutMs: 1500,
    expected: {
      // One finding per loss: retry-ignored and unanswered-after-disconnect leave this case to it.
      must: ['post-stream-not-resumed'],
      // It probes 2026-07-28 first and falls back (info).
      mustNot: except(['post-stream-not-resumed', 'version-fallback']),
    },
    clientVerdict: 'hung',
  },
];

export function findScenario(name: string): Scenario | undefined {
  return scenarios.find((scenario) => scenario.name === name);
}

/** Changes to a scenario's calls for one run; the fault stays the same. */
export interface ScenarioVariant {
  /** Caps every big_result at this many bytes (the fixtures keep the clean control small). */
  bigResultBytes?: number;
  /** Runs the client behind the product's client guard (src/client-guard/); the fault is unchanged. */
  guard?: boolean;
}

export function applyVariant(scenario: Scenario, variant: ScenarioVariant = {}): Scenario {
  const cap = variant.bigResultBytes;
  if (cap === undefined) return scenario;
  const calls = scenario.calls.map((call): ToolCall =>
    call.tool === 'big_result'
      ? { tool: 'big_result', args: { ...call.args, sizeBytes: Math.min(call.args.sizeBytes, cap) } }
      : call,
  );
  return { ...scenario, calls };
}
