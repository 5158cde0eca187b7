// Runs in Node (CLI): command-line parsing, pure (no I/O), so every usage error is testable.
import { parseArgs as nodeParseArgs, type ParseArgsConfig } from 'node:util';
import type { Fault } from '../core/fault/fault';
import { parseFaultSpec } from '../core/fault/spec';
import { SEVERITIES } from '../core/guard/severity';
import type { Severity } from '../core/guard/types';
import type { SilenceThresholds } from '../core/model/silence';

export type FailOn = Severity | 'never';
export const FAIL_ON_VALUES: readonly FailOn[] = [...SEVERITIES, 'never'];

/** What `analyze` prints: the human report, the JSON document, or a CI format (docs/ci-formats.md). */
export type Format = 'text' | 'json' | 'sarif' | 'junit' | 'github';
export const FORMATS: readonly Format[] = ['text', 'json', 'sarif', 'junit', 'github'];

export type Command =
  | {
      kind: 'analyze';
      files: string[];
      format: Format;
      failOn: FailOn;
      chunks?: string;
      revealSecrets?: true;
      silence?: Partial<SilenceThresholds>;
    }
  | { kind: 'rules'; json: boolean }
  | {
      kind: 'proxy';
      upstream: URL;
      host: string;
      port: number;
      faults: Fault[];
      record?: string;
      silence?: Partial<SilenceThresholds>;
    }
  | {
      kind: 'replay';
      /** The capture file or HAR to serve. */
      file: string;
      /** A chunks.ndjson companion that splits the HAR's bodies into the chunks they arrived in. */
      chunks?: string;
      port: number;
      /** Recorded times are divided by it; 0 plays as fast as possible. */
      speed: number;
      faults: Fault[];
      record?: string;
    }
  | { kind: 'help' }
  | { kind: 'version' };

export type ParseResult = { ok: true; command: Command } | { ok: false; error: string };

const fail = (error: string): ParseResult => ({ ok: false, error });
const isFailOn = (value: string): value is FailOn => FAIL_ON_VALUES.some((f) => f === value);
const isFormat = (value: string): value is Format => FORMATS.some((f) => f === value);
const HELP_RESULT: ParseResult = { ok: true, command: { kind: 'help' } };

type Options = NonNullable<ParseArgsConfig['options']>;
type Token = ReturnType<typeof tokenize>['tokens'][number];

/**
 * node:util parseArgs splits the arguments (`--flag=value`, `--`, `-`, short groups) and takes string values;
 * strict mode stays off so that each usage error gets this CLI's own message, not Node's.
 */
function tokenize(args: readonly string[], options: Options) {
  return nodeParseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
}

export function parseArgs(argv: readonly string[]): ParseResult {
  // Help wins wherever it is asked for, except as an operand after `--`.
  const { tokens } = tokenize(argv, { help: { type: 'boolean', short: 'h' } });
  if (tokens.some((t) => t.kind === 'option' && t.name === 'help')) return HELP_RESULT;
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    return { ok: true, command: { kind: 'version' } };
  }
  const [name, ...rest] = argv;
  if (name === undefined) return fail('no command given');
  if (name === 'analyze') return parseAnalyze(rest);
  if (name === 'rules') return parseRules(rest);
  if (name === 'proxy') return parseProxy(rest);
  if (name === 'replay') return parseReplay(rest);
  if (name === 'help') return HELP_RESULT;
  return fail(name.startsWith('-') ? `unknown option ${name}` : `unknown command ${JSON.stringify(name)}`);
}

/** The silence rules' thresholds, in seconds on the command line (request-hang, idle-timeout-cut, buffered-stream). */
const SILENCE_OPTIONS = {
  'hang-after': { type: 'string' },
  'idle-cut-after': { type: 'string' },
  'buffered-after': { type: 'string' },
} as const satisfies Options;

const SILENCE_FIELDS: Record<keyof typeof SILENCE_OPTIONS, keyof SilenceThresholds> = {
  'hang-after': 'hangMs',
  'idle-cut-after': 'idleCutMs',
  'buffered-after': 'bufferedWaitMs',
};

const isSilenceOption = (name: string): name is keyof typeof SILENCE_OPTIONS => Object.hasOwn(SILENCE_OPTIONS, name);

/** Reads one silence option into `silence` (milliseconds); the error to print when its value is not a duration. */
function readSilence(
  name: keyof typeof SILENCE_OPTIONS,
  value: string | undefined,
  silence: Partial<SilenceThresholds>,
): string | undefined {
  const seconds = value === undefined || !/^\d{1,6}(\.\d{1,3})?$/.test(value) ? NaN : Number(value);
  if (!(seconds > 0))
    return `--${name} needs a number of seconds greater than 0 (e.g. --${name} 30)${value === undefined ? '' : `, got ${JSON.stringify(value)}`}`;
  silence[SILENCE_FIELDS[name]] = seconds * 1000;
  return undefined;
}

const ANALYZE_OPTIONS = {
  json: { type: 'boolean' },
  format: { type: 'string' },
  'fail-on': { type: 'string' },
  chunks: { type: 'string' },
  'reveal-secrets': { type: 'boolean' },
  ...SILENCE_OPTIONS,
} as const satisfies Options;

function parseAnalyze(args: readonly string[]): ParseResult {
  const { tokens, positionals: files } = tokenize(args, ANALYZE_OPTIONS);
  let format: Format | undefined;
  let json = false;
  let failOn: FailOn = 'error';
  let chunks: string | undefined;
  let revealSecrets = false;
  const silence: Partial<SilenceThresholds> = {};
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    // The whole argument as typed: `--json=yes`, `-abc`.
    if (!isDeclared(token, ANALYZE_OPTIONS)) return fail(`unknown option ${args[token.index]} for analyze`);
    if (isSilenceOption(token.name)) {
      const error = readSilence(token.name, token.value, silence);
      if (error) return fail(error);
    } else if (token.name === 'json') json = true;
    else if (token.name === 'reveal-secrets') revealSecrets = true;
    else if (token.name === 'format') {
      if (token.value === undefined) return fail(`--format needs a value: ${FORMATS.join(', ')}`);
      if (!isFormat(token.value)) {
        return fail(`--format ${JSON.stringify(token.value)} is not one of ${FORMATS.join(', ')}`);
      }
      format = token.value;
    } else if (token.name === 'fail-on') {
      if (token.value === undefined) return fail('--fail-on needs a value: error, warning, info or never');
      if (!isFailOn(token.value))
        return fail(`--fail-on ${JSON.stringify(token.value)} is not one of error, warning, info, never`);
      failOn = token.value;
    } else {
      if (token.value === undefined) return fail('--chunks needs a file (chunks.ndjson)');
      chunks = token.value;
    }
  }
  if (files.length === 0) return fail('analyze needs at least one file');
  if (chunks !== undefined && files.length !== 1) return fail('--chunks applies to a single HAR file');
  // --json is an alias of --format json; with another format it contradicts it.
  if (json && format !== undefined && format !== 'json') return fail(`--json contradicts --format ${format}`);
  const command = { kind: 'analyze', files, format: format ?? (json ? 'json' : 'text'), failOn } as const;
  return {
    ok: true,
    command: {
      ...command,
      ...(chunks !== undefined && { chunks }),
      ...(revealSecrets && { revealSecrets }),
      ...(Object.keys(silence).length > 0 && { silence }),
    },
  };
}

const PROXY_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  fault: { type: 'string', multiple: true },
  record: { type: 'string' },
  ...SILENCE_OPTIONS,
} as const satisfies Options;

function parseProxy(args: readonly string[]): ParseResult {
  const { tokens, positionals } = tokenize(args, PROXY_OPTIONS);
  let port = 0;
  let host = '127.0.0.1';
  let record: string | undefined;
  const faults: Fault[] = [];
  const silence: Partial<SilenceThresholds> = {};
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (!isDeclared(token, PROXY_OPTIONS)) return fail(`unknown option ${args[token.index]} for proxy`);
    if (isSilenceOption(token.name)) {
      const error = readSilence(token.name, token.value, silence);
      if (error) return fail(error);
      continue;
    }
    const value = token.value;
    if (value === undefined) return fail(`--${token.name} needs a value`);
    const error =
      token.name === 'port'
        ? readPort(value, (p) => (port = p))
        : token.name === 'host'
          ? void (host = value)
          : token.name === 'record'
            ? readRecord(value, (r) => (record = r))
            : readFault(value, faults);
    if (error) return fail(error);
  }
  if (positionals.length !== 1) {
    return fail(
      positionals.length === 0
        ? 'proxy needs the upstream URL'
        : `proxy takes one upstream URL, got ${positionals.length}`,
    );
  }
  const upstream = URL.parse(positionals[0] as string);
  if (!upstream || (upstream.protocol !== 'http:' && upstream.protocol !== 'https:'))
    return fail(`the upstream ${JSON.stringify(positionals[0])} is not an http:// or https:// URL`);
  return {
    ok: true,
    command: {
      kind: 'proxy',
      upstream,
      host,
      port,
      faults,
      ...(record !== undefined && { record }),
      ...(Object.keys(silence).length > 0 && { silence }),
    },
  };
}

/** `--port`: 0 to 65535; the error to print otherwise. */
function readPort(value: string, set: (port: number) => void): string | undefined {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535)
    return `--port ${JSON.stringify(value)} is not a port number (0 to 65535; 0 picks a free one)`;
  set(Number(value));
  return undefined;
}

/** `--record`: a .har or .json file name; the error to print otherwise. */
function readRecord(value: string, set: (file: string) => void): string | undefined {
  if (!/\.(har|json)$/i.test(value))
    return `--record ${JSON.stringify(value)} must end in .har (HAR 1.2) or .json (the capture format)`;
  set(value);
  return undefined;
}

/** `--fault SPEC`, appended to `faults`; the error to print when the spec is refused. */
function readFault(value: string, faults: Fault[]): string | undefined {
  const parsed = parseFaultSpec(value);
  if (!parsed.ok) return `--fault ${JSON.stringify(value)}: ${parsed.error}`;
  faults.push(parsed.fault);
  return undefined;
}

const REPLAY_OPTIONS = {
  port: { type: 'string' },
  speed: { type: 'string' },
  fault: { type: 'string', multiple: true },
  record: { type: 'string' },
  chunks: { type: 'string' },
} as const satisfies Options;

/** `--speed`: 0 (as fast as possible) or a positive factor (2 plays twice as fast). */
function readSpeed(value: string, set: (speed: number) => void): string | undefined {
  const speed = /^\d{1,6}(\.\d{1,6})?$/.test(value) ? Number(value) : NaN;
  if (Number.isNaN(speed))
    return `--speed ${JSON.stringify(value)} is not a speed: a number, 1 as recorded, 2 twice as fast, 0 as fast as possible`;
  set(speed);
  return undefined;
}

function parseReplay(args: readonly string[]): ParseResult {
  const { tokens, positionals } = tokenize(args, REPLAY_OPTIONS);
  let port = 0;
  let speed = 1;
  let record: string | undefined;
  let chunks: string | undefined;
  const faults: Fault[] = [];
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (!isDeclared(token, REPLAY_OPTIONS)) return fail(`unknown option ${args[token.index]} for replay`);
    const value = token.value;
    if (value === undefined) return fail(`--${token.name} needs a value`);
    const error =
      token.name === 'port'
        ? readPort(value, (p) => (port = p))
        : token.name === 'speed'
          ? readSpeed(value, (f) => (speed = f))
          : token.name === 'record'
            ? readRecord(value, (r) => (record = r))
            : token.name === 'chunks'
              ? void (chunks = value)
              : readFault(value, faults);
    if (error) return fail(error);
  }
  if (positionals.length !== 1) {
    return fail(
      positionals.length === 0
        ? 'replay needs a capture file or HAR to serve'
        : `replay serves one capture file or HAR, got ${positionals.length}`,
    );
  }
  const file = positionals[0] as string;
  return {
    ok: true,
    command: {
      kind: 'replay',
      file,
      port,
      speed,
      faults,
      ...(record !== undefined && { record }),
      ...(chunks !== undefined && { chunks }),
    },
  };
}

const RULES_OPTIONS = { json: { type: 'boolean' } } as const satisfies Options;

function parseRules(args: readonly string[]): ParseResult {
  const { tokens } = tokenize(args, RULES_OPTIONS);
  // Anything but --json is unexpected here, `--` included: rules takes no operands.
  const unexpected = tokens.find((t) => t.kind !== 'option' || !isDeclared(t, RULES_OPTIONS));
  if (unexpected) return fail(`unexpected argument ${args[unexpected.index]} for rules`);
  // Every token left is a --json.
  return { ok: true, command: { kind: 'rules', json: tokens.length > 0 } };
}

/** Whether the option is one of `options` as declared: a boolean given a value (`--json=yes`) is not. */
function isDeclared(token: Token & { kind: 'option' }, options: Options): boolean {
  const declared = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
  return declared !== undefined && (declared.type === 'string' || token.value === undefined);
}

export const HELP = `mcp-stream-inspector: check what MCP Streamable HTTP resumption really delivered.

Usage:
  mcp-stream-inspector analyze <file>... [--format text|json|sarif|junit|github] [--json]
                               [--fail-on error|warning|info|never] [--chunks <chunks.ndjson>]
                               [--reveal-secrets] [--hang-after S] [--idle-cut-after S] [--buffered-after S]
  mcp-stream-inspector rules [--json]
  mcp-stream-inspector proxy <upstream-url> [--port N] [--host 127.0.0.1] [--fault SPEC]... [--record FILE]
                               [--hang-after S] [--idle-cut-after S] [--buffered-after S]
  mcp-stream-inspector replay <capture.json|file.har> [--port N] [--speed F] [--fault SPEC]... [--record FILE]
                               [--chunks <chunks.ndjson>]
  mcp-stream-inspector --help | --version

analyze   Reads capture files (format v1, exported by the DevTools panel), HAR files (Chrome, Firefox,
          Playwright, proxies) or raw event streams saved with \`curl -N\` (optionally with \`-i\` headers);
          the content decides which. "-" reads standard input. Prints findings grouped by session.
  --format F    text (default): the human report. json: one JSON document, {"findings": [...], "sessions": [...]}
                for one file, {"files": [{"file", "findings", "sessions"} | {"file", "error"}]} for several.
                sarif: SARIF 2.1.0 for code scanning. junit: JUnit XML, a testsuite per file, a testcase per
                session, a failure per finding at or above --fail-on. github: GitHub Actions annotations.
  --json        The same as --format json.
  --fail-on S   Exit 1 when a finding of severity S or worse exists (default: error; never: always 0).
  --chunks F    Per-chunk times and offsets (chunks.ndjson) that split the bodies of a single HAR file.
  --reveal-secrets  Print credentials and session ids as the file has them. By default they are redacted
                before analysis (docs/redaction.md): the findings are the same, session ids become
                redacted-session-N, URLs and messages carry ‹redacted:3f2a› tags.
  --hang-after S      request-hang: a request waiting with no message on its open stream for S seconds (30).
  --idle-cut-after S  idle-timeout-cut: streams cut after the same silence of at least S seconds (1).
  --buffered-after S  buffered-stream: a stream's first byte S seconds or more after its request (1).
rules     Lists the guard rules: id, severity, summary.
proxy     A reverse proxy in front of an MCP server (Streamable HTTP or 2024-11-05 HTTP+SSE): forwards every
          request, streams responses as they come, prints a line per exchange and each finding as it shows;
          its first line is the URL to point your client at (same path as the upstream). SIGINT or SIGTERM
          stops it after writing the recording.
  --port N      Port to listen on (default 0: a free one).
  --host H      Address to listen on (default 127.0.0.1).
  --record F    Write what passed through to F when stopped: .har (HAR 1.2) or .json (capture format).
  --hang-after, --idle-cut-after, --buffered-after  As for analyze, for the live findings.
  --fault SPEC  Break the traffic on purpose, once (or every time with @every); several compose in order.
                SPEC is NAME[:VALUE][@every][,method=METHOD]: cut-mid-event[:BYTES], cut-at-boundary[:EVENTS],
                drop-first-replayed[:EVENTS], replay-cursor, resume-status:400|404|409, resume-silent,
                close-resumes, restart-epoch[:EPOCH], delay:MS, drop-listen-ack, inject-server-request,
                set-header:NAME=VALUE, alter-request-state, add-event-ids[:RETRY_MS],
                rewrite-response-id, buffer[:body], stall:MS, idle-cut:SECONDS (the silence faults: hold a
                stream to its end, pause it once, cut it after that much silence; idle-cut@every every stream).
                Cuts and delays strike the first tools/call (or METHOD) request, never initialize; the
                resume faults strike the first resume (GET with Last-Event-ID) after that cut
                (close-resumes every one: 200, a new priming event after the cursor, the end); the
                2026-07-28 ones the first subscriptions/listen stream (its acknowledgement dropped) or
                the first tools/call (or METHOD) stream (a roots/list request sent first); set-header the
                first tools/call (or METHOD) request, alter-request-state the first retry echoing a
                requestState, both recorded as rewritten; add-event-ids the first tools/call (or METHOD)
                SSE response (each event given an id:, the first a retry: RETRY_MS), rewrite-response-id
                the first one's JSON-RPC response (its id + 1000, or "-other" appended). docs/proxy.md.
replay    Serves a recorded server again on 127.0.0.1 (docs/replay.md): each request of a live client, of any
          language, is matched to a recorded exchange (JSON-RPC method and params, then order; a resume by its
          Last-Event-ID) and answered with the recorded head, chunks at their recorded times and the recorded
          end (a cut after the same byte). Its first line is the URL to point your client at; then a line per
          exchange, each divergence from the recorded client as it happens (with the answer the replay gave)
          and each finding. SIGINT or SIGTERM stops it after writing the recording.
  --port N      Port to listen on (default 0: a free one).
  --speed F     Recorded times divided by F (default 1; 2 twice as fast; 0 as fast as possible).
  --fault SPEC  The proxy's faults (above), struck on the replayed traffic.
  --record F    Write what the live client did to F when stopped: .har or .json (with the divergences).
  --chunks F    The chunks.ndjson companion of a HAR (as for analyze).

Exit codes: 0 no finding at or above --fail-on; 1 findings at or above it; 2 usage error or an input that
could not be read (reported on stderr, the other files are still analyzed); 3 internal error. proxy: 0 once
stopped by SIGINT or SIGTERM; 2 on a bad argument or fault spec, an address it cannot listen on, or a recording
it cannot write. replay: 0 once stopped; 2 on a bad argument, an input it cannot read, an address it cannot
listen on, or a recording it cannot write.
`;
