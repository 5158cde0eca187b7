// Runs in Node (CLI): the command runner. All I/O goes through `CliIo`, so tests drive it in-process.
import type { SilenceThresholds } from '../core/model/silence';
import { analyze, analyzeRead } from '../core/analyze';
import { InputError } from '../core/capture/errors';
import { createRedactor } from '../core/capture/redact/capture';
import { rules } from '../core/guard';
import { atLeast } from '../core/guard/severity';
import type { Finding } from '../core/guard/types';
import { pathToFileURL } from 'node:url';
import { HELP, parseArgs, type Command, type FailOn, type Format } from './args';
import { githubWriter, junitWriter, sarifWriter } from './ci-writers';
import { toJsonReport } from './json-report';
import { locateFindings } from './locate';
import type { RangeReader, ScratchFile } from './file-chunks';
import type { CliIo } from './io';
import { ProgressBar } from './progress';
import type { FileOutcome, ReportWriter } from './report-writer';
import { formatRules, rulesToJson } from './rules-list';
import { readInput, type ReadInput } from './stream-input';
import { ansi, plain } from './style';
import { countBySeverity, formatCounts, formatReport, type SeverityCounts } from './text-report';

export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE_OR_INPUT = 2;
export const EXIT_INTERNAL = 3;

/** 1 when any finding is at or above `failOn`, else 0. */
export function findingsExitCode(findings: readonly Finding[], failOn: FailOn): number {
  if (failOn === 'never') return EXIT_OK;
  return findings.some((f) => atLeast(f.severity, failOn)) ? EXIT_FINDINGS : EXIT_OK;
}

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv);
  if (!parsed.ok) {
    io.stderr(`mcp-stream-inspector: ${parsed.error}\nRun "mcp-stream-inspector --help" for usage.\n`);
    return EXIT_USAGE_OR_INPUT;
  }
  return runCommand(parsed.command, io);
}

async function runCommand(command: Command, io: CliIo): Promise<number> {
  switch (command.kind) {
    case 'help':
      io.stdout(HELP);
      return EXIT_OK;
    case 'version':
      io.stdout(`${io.version}\n`);
      return EXIT_OK;
    case 'rules':
      io.stdout(command.json ? `${JSON.stringify(rulesToJson(rules), null, 2)}\n` : formatRules(rules));
      return EXIT_OK;
    case 'analyze':
      return analyzeFiles(command, io);
    // Loaded when asked for: their servers' modules (node:http, node:crypto, ...) cost every analyze ~40 ms to load.
    case 'proxy':
      return (await import('./proxy-command')).runProxy(command, io);
    case 'replay':
      return (await import('./replay-command')).runReplay(command, io);
  }
}

/**
 * Analyzes the files one after another and writes each report as soon as it is ready, so memory stays
 * bounded by the largest input and a problem on stderr shows next to the file it concerns.
 */
async function analyzeFiles(command: Extract<Command, { kind: 'analyze' }>, io: CliIo): Promise<number> {
  let chunks: Companion | undefined;
  if (command.chunks !== undefined) {
    const read = await readText(command.chunks, io);
    if (!read.ok) return EXIT_USAGE_OR_INPUT;
    chunks = { file: command.chunks, text: read.text };
  }
  const writer = await writerFor(command, io);
  let code = EXIT_OK;
  // A raw stream's chunks read their file again until the reports are written; so do bodies moved to the scratch file.
  const open: RangeReader[] = [];
  let scratch: ScratchFile | undefined;
  const openScratch = (): ScratchFile | undefined => {
    if (!scratch && (scratch = io.openScratch?.())) open.push(scratch);
    return scratch;
  };
  try {
    for (const file of command.files) {
      const ranges = io.openRanges?.(file);
      if (ranges) open.push(ranges);
      const outcome = await analyzeFile(file, chunks, io, command, ranges, openScratch);
      writer.write(outcome);
      const fileCode = outcome.ok ? findingsExitCode(outcome.analysis.findings, command.failOn) : outcome.code;
      code = Math.max(code, fileCode);
    }
    writer.finish();
  } finally {
    for (const ranges of open) ranges.close();
  }
  return code;
}

/** The --chunks companion file. */
interface Companion {
  file: string;
  text: string;
}

async function analyzeFile(
  file: string,
  chunks: Companion | undefined,
  io: CliIo,
  { format, revealSecrets, silence }: { format: Format; revealSecrets?: true; silence?: Partial<SilenceThresholds> },
  ranges: RangeReader | undefined,
  scratch: () => ScratchFile | undefined,
): Promise<FileOutcome> {
  const bar = io.progress && new ProgressBar(io.progress, file, await io.fileSize(file).catch(() => undefined));
  try {
    // Only the CI formats say where a finding is in the file: the lines of HAR entries are noted only for them.
    const lines = format !== 'text' && format !== 'json';
    let read: ReadInput;
    let seen = { bytes: 0, elements: 0 };
    const redactor = revealSecrets ? undefined : createRedactor();
    try {
      read = await readInput(io.readPieces(file), file, {
        lines,
        ...(chunks && { chunksNdjson: chunks.text }),
        ...(ranges && { ranges }),
        scratch,
        ...(redactor && { redactor }),
        ...(bar && {
          onProgress: (bytes: number, elements: number) => {
            seen = { bytes, elements };
            bar.reading(bytes, elements);
          },
        }),
      });
    } catch (error) {
      if (error instanceof InputError) throw error;
      if (error instanceof RangeError) throw new InputError('', `too large to hold: ${error.message}`);
      const message = `cannot read: ${errorText(error)}`;
      bar?.clear();
      io.stderr(`mcp-stream-inspector: ${file}: ${message}\n`);
      return { file, ok: false, code: EXIT_USAGE_OR_INPUT, error: { path: '', message } };
    }
    const loaded = read.capture;
    bar?.analyzing(seen.bytes, seen.elements);
    // Redacted before analysis, so that nothing printed (findings, sessions, URLs) carries a secret.
    const capture = redactor ? redactor.redact(loaded, read.bodyMasked).capture : loaded;
    const options = silence ? { silence } : {};
    const analysis = read.bodies
      ? analyzeRead(capture, read.bodies, undefined, options)
      : analyze(capture, undefined, options);
    const places = lines ? locateFindings(read.source, capture, analysis.findings) : [];
    bar?.clear();
    return { file, ok: true, analysis, places };
  } catch (error) {
    bar?.clear();
    if (error instanceof InputError) {
      // Companion problems carry line paths ("line 12.offset"): name the companion file then.
      const where = chunks && /^line \d+/.test(error.path) ? `${chunks.file} (chunks for ${file})` : file;
      io.stderr(`mcp-stream-inspector: ${where}: ${error.message}\n`);
      return { file, ok: false, code: EXIT_USAGE_OR_INPUT, error: { path: error.path, message: error.detail } };
    }
    // Anything else is a bug in the core: say so, keep going with the other files.
    const message = `internal error: ${errorText(error)}`;
    io.stderr(`mcp-stream-inspector: ${file}: ${message}\n${error instanceof Error ? (error.stack ?? '') : ''}\n`);
    return { file, ok: false, code: EXIT_INTERNAL, error: { path: '', message } };
  }
}

async function readText(file: string, io: CliIo): Promise<{ ok: true; text: string } | { ok: false }> {
  try {
    return { ok: true, text: new TextDecoder().decode(await io.readFile(file)) };
  } catch (error) {
    io.stderr(`mcp-stream-inspector: ${file}: cannot read: ${errorText(error)}\n`);
    return { ok: false };
  }
}

async function writerFor(command: Extract<Command, { kind: 'analyze' }>, io: CliIo): Promise<ReportWriter> {
  const write = (text: string) => io.stdout(text);
  switch (command.format) {
    case 'text':
      return textWriter(io, command.files.length);
    case 'json':
      return jsonWriter(io, command.files.length);
    case 'junit':
      return junitWriter(write, command.failOn);
    case 'github':
      return githubWriter(write);
    case 'sarif': {
      const docs = await readRuleDocs(io);
      const helpUri = (id: string) => pathToFileURL(io.docPath(id)).href;
      return sarifWriter(write, { version: io.version, helpUri, helpMarkdown: (id) => docs.get(id) });
    }
  }
}

/** The rules' doc pages, for SARIF's rule help; a page that cannot be read is left out (its URI stays). */
async function readRuleDocs(io: CliIo): Promise<Map<string, string>> {
  const pages = await Promise.allSettled(rules.map((r) => io.readFile(io.docPath(r.id))));
  const docs = new Map<string, string>();
  pages.forEach((page, i) => {
    const id = rules[i]?.id;
    if (page.status === 'fulfilled' && id !== undefined) docs.set(id, new TextDecoder().decode(page.value));
  });
  return docs;
}

/**
 * One file: its `{findings, sessions}` document (nothing on stdout when it could not be read). Several:
 * `{"files": [...]}`, written element by element; the text equals JSON.stringify of the whole.
 */
function jsonWriter(io: CliIo, fileCount: number): ReportWriter {
  let written = 0;
  return {
    write(o) {
      if (fileCount === 1) {
        if (o.ok) io.stdout(`${JSON.stringify(toJsonReport(o.analysis), null, 2)}\n`);
        return;
      }
      const element = o.ok ? { file: o.file, ...toJsonReport(o.analysis) } : { file: o.file, error: o.error };
      const indented = `    ${JSON.stringify(element, null, 2).replace(/\n/g, '\n    ')}`;
      io.stdout(`${written === 0 ? '{\n  "files": [\n' : ',\n'}${indented}`);
      written++;
    },
    finish() {
      if (fileCount > 1) io.stdout(written === 0 ? '{\n  "files": []\n}\n' : '\n  ]\n}\n');
    },
  };
}

function textWriter(io: CliIo, fileCount: number): ReportWriter {
  const style = io.color ? ansi : plain;
  const summaries = new Map(rules.map((r) => [r.id, r.summary]));
  const options = { style, ruleSummary: (id: string) => summaries.get(id), docPath: io.docPath };
  const total: SeverityCounts = { error: 0, warning: 0, info: 0 };
  let reported = 0;
  return {
    write(o) {
      if (!o.ok) return; // already explained on stderr
      if (reported > 0) io.stdout('\n');
      io.stdout(formatReport(o.file, o.analysis, options));
      const counts = countBySeverity(o.analysis.findings);
      total.error += counts.error;
      total.warning += counts.warning;
      total.info += counts.info;
      reported++;
    },
    finish() {
      if (fileCount < 2) return;
      const failed = fileCount - reported;
      const unreadable = failed > 0 ? ` (${failed} could not be read)` : '';
      io.stdout(`\ntotal over ${fileCount} files${unreadable}: ${formatCounts(total, style)}\n`);
    },
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
