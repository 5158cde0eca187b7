// Runs in Node (CLI): command-line parsing, pure (no I/O), so every usage error is testable.
import type { Severity } from '../core/guard/types';

export type FailOn = Severity | 'never';
export const FAIL_ON_VALUES: readonly FailOn[] = ['error', 'warning', 'info', 'never'];

export type Command =
  | { kind: 'analyze'; files: string[]; json: boolean; failOn: FailOn; chunks?: string }
  | { kind: 'rules'; json: boolean }
  | { kind: 'help' }
  | { kind: 'version' };

export type ParseResult = { ok: true; command: Command } | { ok: false; error: string };

const fail = (error: string): ParseResult => ({ ok: false, error });
const isFailOn = (value: string): value is FailOn => FAIL_ON_VALUES.some((f) => f === value);

export function parseArgs(argv: readonly string[]): ParseResult {
  if (argv.includes('--help') || argv.includes('-h')) return { ok: true, command: { kind: 'help' } };
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    return { ok: true, command: { kind: 'version' } };
  }
  const [name, ...rest] = argv;
  if (name === undefined) return fail('no command given');
  if (name === 'analyze') return parseAnalyze(rest);
  if (name === 'rules') return parseRules(rest);
  if (name === 'help') return { ok: true, command: { kind: 'help' } };
  return fail(name.startsWith('-') ? `unknown option ${name}` : `unknown command ${JSON.stringify(name)}`);
}

function parseAnalyze(args: readonly string[]): ParseResult {
  const files: string[] = [];
  let json = false;
  let failOn: FailOn = 'error';
  let chunks: string | undefined;
  let onlyFiles = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (onlyFiles || arg === '-' || !arg.startsWith('-')) {
      files.push(arg);
      continue;
    }
    const [flag, inlineValue] = splitFlag(arg);
    const value = (): string | undefined => inlineValue ?? args[++i];
    if (flag === '--') onlyFiles = true;
    else if (flag === '--json' && inlineValue === undefined) json = true;
    else if (flag === '--fail-on') {
      const v = value();
      if (v === undefined) return fail('--fail-on needs a value: error, warning, info or never');
      if (!isFailOn(v)) return fail(`--fail-on ${JSON.stringify(v)} is not one of error, warning, info, never`);
      failOn = v;
    } else if (flag === '--chunks') {
      const v = value();
      if (v === undefined) return fail('--chunks needs a file (chunks.ndjson)');
      chunks = v;
    } else return fail(`unknown option ${arg} for analyze`);
  }
  if (files.length === 0) return fail('analyze needs at least one file');
  if (chunks !== undefined && files.length !== 1) return fail('--chunks applies to a single HAR file');
  return { ok: true, command: { kind: 'analyze', files, json, failOn, ...(chunks !== undefined && { chunks }) } };
}

function parseRules(args: readonly string[]): ParseResult {
  let json = false;
  for (const arg of args) {
    if (arg === '--json') json = true;
    else return fail(`unexpected argument ${arg} for rules`);
  }
  return { ok: true, command: { kind: 'rules', json } };
}

/** `--flag=value` -> [flag, value]; `--flag` -> [flag, undefined]. */
function splitFlag(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return eq === -1 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
}

export const HELP = `mcp-stream-inspector: check what MCP Streamable HTTP resumption really delivered.

Usage:
  mcp-stream-inspector analyze <file>... [--json] [--fail-on error|warning|info|never] [--chunks <chunks.ndjson>]
  mcp-stream-inspector rules [--json]
  mcp-stream-inspector --help | --version

analyze   Reads capture files (format v1, exported by the DevTools panel), HAR files (Chrome, Firefox,
          Playwright, proxies) or raw event streams saved with \`curl -N\` (optionally with \`-i\` headers);
          the content decides which. "-" reads standard input. Prints findings grouped by session.
  --json        One JSON document: {"findings": [...], "sessions": [...]} for one file;
                {"files": [{"file", "findings", "sessions"} | {"file", "error"}]} for several.
  --fail-on S   Exit 1 when a finding of severity S or worse exists (default: error; never: always 0).
  --chunks F    Per-chunk times and offsets (chunks.ndjson) that split the bodies of a single HAR file.
rules     Lists the guard rules: id, severity, summary.

Exit codes: 0 no finding at or above --fail-on; 1 findings at or above it; 2 usage error or an input that
could not be read (reported on stderr, the other files are still analyzed); 3 internal error.
`;
