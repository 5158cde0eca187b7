// Runs in Node (`npm run bench:analyze [events]`): one-shot analyze vs the live panel's re-analysis; not shipped, not a test.
/*
 * How to read it
 * - The capture is src/core/capture/synthetic.fixture.ts at the given size (default 100k events, ~13 MB of body): an
 *   initialize exchange, a tools/call POST stream cut mid-event, and the GET that resumes it.
 * - "one-shot" is analyze(capture): every connection parsed from its bytes, every event's JSON read, the
 *   model built, the rules run with their indexes built from scratch. It is the reference (1.00x) for the other rows.
 * - The other rows use createAnalyzer(), as the panel does, primed with the capture as it stood one step
 *   earlier (not timed), then timed on the step the panel would see next:
 *     one chunk appended: the resuming GET is still open and one more chunk (64 events) arrived; the panel
 *       copies that record, so its parser continues from where it stopped and the others are reused;
 *     the stream ends: the same GET gets its end (no new bytes);
 *     nothing changed: the same capture again.
 *   The analyzer also keeps the last model's event views and order (a grown stream's old events keep their
 *   objects and places) and the rules' event indexes (first deliveries, answers, sequence numbers...), which read
 *   only the events that arrived; so a step costs what changed plus a few copies and identity scans of the
 *   100k-entry lists, not a re-analysis.
 * - The "part:" rows split the work of one chunk appended: building the model (parse + assembly) and running the
 *   rules, each one-shot and with the analyzer's memory of the step before.
 * - ms = CPU time (user + system, so other load on the machine does not count), best and median of several
 *   runs after warm-up, with a GC before each. "of one-shot" = row best / one-shot best (lower is better).
 * - Every timed incremental result is checked against the one-shot result of the same capture; the run
 *   throws if they differ.
 */
import { isDeepStrictEqual } from 'node:util';
import { analyze, createAnalyzer, type Analysis, type Analyzer } from '../src/core/analyze';
import type { Capture, ConnectionRecord } from '../src/core/capture/model';
import { runRules } from '../src/core/guard/engine';
import { FactsMemory } from '../src/core/guard/facts';
import { rules } from '../src/core/guard/index';
import { buildModel } from '../src/core/model/build';
import { PlacementMemory } from '../src/core/model/events';
import { ConnectionParseCache } from '../src/core/model/parse-cache';
import { syntheticCapture } from '../src/core/capture/synthetic.fixture';

const collectGarbage: () => void = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The capture with its last connection replaced (as the panel's applyDeltas copies the record it touches). */
function withLast(capture: Capture, change: (record: ConnectionRecord) => ConnectionRecord): Capture {
  const records = capture.connections.slice();
  records[records.length - 1] = change(records[records.length - 1] as ConnectionRecord);
  return { ...capture, connections: records };
}

interface Step {
  name: string;
  /** The capture the analyzer saw last (its cache is primed with it). */
  before: Capture;
  after: Capture;
}

interface Row {
  name: string;
  best: number;
  median: number;
}

function sameAnalysis(a: Analysis, b: Analysis): boolean {
  return a.events.length === b.events.length && isDeepStrictEqual(a, b);
}

function timeOneShot(capture: Capture, runs: number): { row: Row; result: Analysis } {
  let result = analyze(capture);
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    collectGarbage();
    const t0 = cpuMs();
    result = analyze(capture);
    ms.push(cpuMs() - t0);
  }
  return { row: { name: 'one-shot analyze', best: Math.min(...ms), median: median(ms) }, result };
}

function timeIncremental(step: Step, expected: Analysis, runs: number): Row {
  const ms: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const analyzer: Analyzer = createAnalyzer();
    analyzer(step.before);
    collectGarbage();
    const t0 = cpuMs();
    const result = analyzer(step.after);
    const spent = cpuMs() - t0;
    if (i > 0) ms.push(spent); // the first round warms the code up
    if (i === runs && !sameAnalysis(result, expected))
      throw new Error(`${step.name}: incremental analysis differs from one-shot`);
  }
  return { name: `incremental: ${step.name}`, best: Math.min(...ms), median: median(ms) };
}

/** CPU ms of `run`, best and median of `runs` after one warm-up round; `prepare` is not timed. */
function timeRow<T>(name: string, runs: number, prepare: () => T, run: (prepared: T) => unknown): Row {
  const ms: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const prepared = prepare();
    collectGarbage();
    const t0 = cpuMs();
    run(prepared);
    if (i > 0) ms.push(cpuMs() - t0);
  }
  return { name, best: Math.min(...ms), median: median(ms) };
}

/** An analyzer's memory (parse cache, event views, rule indexes) as it stands after analysing `capture`. */
function memoryAfter(capture: Capture) {
  const cache = new ConnectionParseCache();
  const placement = new PlacementMemory();
  const facts = new FactsMemory();
  const build = (c: Capture) => buildModel(c, (records) => cache.parseAll(records), placement);
  runRules(build(capture), rules, facts);
  return { build, facts };
}

function parts(step: Step, runs: number): Row[] {
  return [
    timeRow(
      'part: buildModel, one-shot',
      runs,
      () => undefined,
      () => buildModel(step.after),
    ),
    timeRow(
      `part: buildModel, incremental (${step.name})`,
      runs,
      () => memoryAfter(step.before),
      ({ build }) => build(step.after),
    ),
    timeRow(
      'part: the rules, one-shot',
      runs,
      () => buildModel(step.after),
      (model) => runRules(model, rules),
    ),
    timeRow(
      `part: the rules, incremental (${step.name})`,
      runs,
      () => {
        const { build, facts } = memoryAfter(step.before);
        return { model: build(step.after), facts };
      },
      ({ model, facts }) => runRules(model, rules, facts),
    ),
  ];
}

function printTable(rows: readonly Row[], reference: number): void {
  const header = ['case', 'best ms', 'median ms', 'of one-shot'];
  const cells = rows.map((r) => [
    r.name,
    r.best.toFixed(1),
    r.median.toFixed(1),
    `${(r.best / reference).toFixed(2)}x`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: readonly string[]) =>
    c.map((v, i) => (i === 0 ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join('  ');
  process.stdout.write(`${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const c of cells) process.stdout.write(`${line(c)}\n`);
}

function main(): void {
  const started = performance.now();
  const events = Number(process.argv[2] ?? 100_000);
  const runs = 7;
  const full = syntheticCapture(events);
  const bytes = full.connections.reduce((n, c) => n + c.chunks.reduce((m, k) => m + k.bytes.byteLength, 0), 0);
  // The resuming GET while it streams: all but its last chunk, still open.
  const streaming = withLast(full, (r) => {
    const { endTime: _endTime, ...open } = r;
    return { ...open, chunks: r.chunks.slice(0, -1), end: 'open' };
  });
  const grown = withLast(streaming, (r) => {
    const last = full.connections.at(-1) as ConnectionRecord;
    return { ...r, chunks: [...r.chunks, last.chunks.at(-1) as (typeof last.chunks)[number]] };
  });
  const ended = withLast(grown, (r) => {
    const last = full.connections.at(-1) as ConnectionRecord;
    return { ...r, end: last.end, ...(last.endTime !== undefined ? { endTime: last.endTime } : {}) };
  });
  process.stdout.write(
    `${events} events, ${(bytes / 1e6).toFixed(1)} MB of body, ${full.connections.length} connections; CPU time\n\n`,
  );

  const { row: oneShot, result: grownOneShot } = timeOneShot(grown, runs);
  const appended: Step = { name: 'one chunk appended', before: streaming, after: grown };
  const rows = [
    oneShot,
    timeIncremental(appended, grownOneShot, runs),
    timeIncremental({ name: 'the stream ends', before: grown, after: ended }, analyze(ended), runs),
    timeIncremental({ name: 'nothing changed', before: grown, after: grown }, grownOneShot, runs),
    ...parts(appended, runs),
  ];
  printTable(rows, oneShot.best);
  process.stdout.write(`\n${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

main();
