// Runs in Node (CLI): command-line parsing, pure (no I/O), so every usage error is testable.
import { parseArgs as nodeParseArgs, type ParseArgsConfig } from 'node:util';
import { SEVERITIES } from '../core/guard/severity';
import type { Severity } from '../core/guard/types';

export type FailOn = Severity | 'never';
export const FAIL_ON_VALUES: readonly FailOn[] = [...SEVERITIES, 'never'];

/** What `analyze` prints: the human report, the JSON document, or a CI format (docs/ci-formats.md). */
export type Format = 'text' | 'json' | 'sarif' | 'junit' | 'github';
export const FORMATS: readonly Format[] = ['text', 'json', 'sarif', 'junit', 'github'];

export type Command =
  | { kind: 'analyze'; files: string[]; format: Format; failOn: FailOn; chunks?: string; revealSecrets?: true }
  | { kind: 'rules'; json: boolean }
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
  if (name === 'help') return HELP_RESULT;
  return fail(name.startsWith('-') ? `unknown option ${name}` : `unknown command ${JSON.stringify(name)}`);
}

const ANALYZE_OPTIONS = {
  json: { type: 'boolean' },
  format: { type: 'string' },
  'fail-on': { type: 'string' },
  chunks: { type: 'string' },
  'reveal-secrets': { type: 'boolean' },
} as const satisfies Options;

function parseAnalyze(args: readonly string[]): ParseResult {
  const { tokens, positionals: files } = tokenize(args, ANALYZE_OPTIONS);
  let format: Format | undefined;
  let json = false;
  let failOn: FailOn = 'error';
  let chunks: string | undefined;
  let revealSecrets = false;
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    // The whole argument as typed: `--json=yes`, `-abc`.
    if (!isDeclared(token, ANALYZE_OPTIONS)) return fail(`unknown option ${args[token.index]} for analyze`);
    if (token.name === 'json') json = true;
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
    command: { ...command, ...(chunks !== undefined && { chunks }), ...(revealSecrets && { revealSecrets }) },
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
                               [--reveal-secrets]
  mcp-stream-inspector rules [--json]
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
rules     Lists the guard rules: id, severity, summary.

Exit codes: 0 no finding at or above --fail-on; 1 findings at or above it; 2 usage error or an input that
could not be read (reported on stderr, the other files are still analyzed); 3 internal error.
`;
