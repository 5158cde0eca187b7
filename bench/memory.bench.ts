// Runs in Node (`node --expose-gc --import tsx bench/memory.bench.ts [case]`): what the analysis keeps in memory
// beside the capture's bytes; not shipped, not a test.
/*
 * How to read it
 * - Each case runs in its own child process (a fresh heap): the capture is built and held, the heap is measured
 *   (the baseline: the process holding only the capture), then the capture is streamed through createAnalyzer as
 *   the live panel sees it (records appear in start order and grow a few chunks per step; the last step is the
 *   whole capture), and the heap is measured again while the analyzer and its last analysis are held.
 *   One-shot analyze(capture) is measured the same way in another child.
 * - Heap = v8 used_heap_size + the backing stores of ArrayBuffers (process.memoryUsage().arrayBuffers: where
 *   typed arrays keep their contents, outside the JS heap proper), each after two forced GCs.
 * - derived = (heap with the analysis - baseline) / payload, payload = the capture's body bytes. The panel holds
 *   the bytes once; everything derived from them has to fit in about as much again: target <= 1.0x.
 * - Cases: synthetic-100k = src/core/capture/synthetic.fixture.ts at 100k events (~13 MB of small progress
 *   notifications: the per-event case); synthetic-100k-open = the same with its last connection (40k events)
 *   still open, as a live stream is while the panel watches it; synthetic-100k-sdk-ids = the same with ids as the
 *   MCP TypeScript SDK's example event store makes them (no counter to split off); big-20x4mib = src/core/capture/big-results.fixture.ts, 20 tool results
 *   of 4 MiB each in 64 KiB chunks (the per-byte case).
 * - The last line, `BENCH core-memory derived=<worst>x target=1.0x PASS|FAIL`, is the worst streamed case.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { analyze, createAnalyzer, type Analysis } from '../src/core/analyze';
import type { Capture, ConnectionRecord } from '../src/core/capture/model';
import { bigResultsCapture } from '../src/core/capture/big-results.fixture';
import { sdkStyleId, syntheticCapture } from '../src/core/capture/synthetic.fixture';

const TARGET = 1.0;

interface CaseDef {
  describe: string;
  capture: () => Capture;
  /** Chunks a growing record gains per analysis. */
  chunksPerStep: number;
}

const CASES: Record<string, CaseDef> = {
  'synthetic-100k': {
    describe: '100k progress notifications (~13 MB)',
    capture: () => syntheticCapture(100_000),
    chunksPerStep: 64,
  },
  'synthetic-100k-open': {
    describe: 'the same, its resuming GET still open (a live body: its columns have room to grow)',
    capture: () => withLastOpen(syntheticCapture(100_000)),
    chunksPerStep: 64,
  },
  'synthetic-100k-sdk-ids': {
    describe: 'the same with the MCP SDK example store ids (<stream>_<ms>_<random>): ids that are no counter',
    capture: () => syntheticCapture(100_000, undefined, sdkStyleId),
    chunksPerStep: 64,
  },
  'big-20x4mib': {
    describe: '20 tool results of 4 MiB',
    capture: () => bigResultsCapture(20, 4 * 1024 * 1024),
    chunksPerStep: 16,
  },
};

/** The capture with its last record still streaming. */
function withLastOpen(capture: Capture): Capture {
  const records = capture.connections.slice();
  const { endTime: _endTime, ...last } = records.at(-1) as ConnectionRecord;
  records[records.length - 1] = { ...last, end: 'open' };
  return { ...capture, connections: records };
}

interface Measured {
  name: string;
  mode: 'streamed' | 'one-shot';
  payload: number;
  baseline: number;
  after: number;
  heapDelta: number;
  externalDelta: number;
  events: number;
  findings: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

function heapNow(): { heap: number; external: number } {
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  return { heap: getHeapStatistics().used_heap_size, external: process.memoryUsage().arrayBuffers };
}

/** The capture as the live panel sees it grow: each step one record gains `per` chunks (a copy of the record). */
function* growing(full: Capture, per: number): Generator<Capture> {
  const ordered = full.connections
    .map((record, i) => ({ record, i }))
    .sort((a, b) => a.record.startTime - b.record.startTime);
  const shown: ConnectionRecord[] = [];
  for (const { record } of ordered) {
    for (let n = 0; n < record.chunks.length; n += per) {
      const { endTime: _endTime, ...open } = record;
      const partial: ConnectionRecord = { ...open, chunks: record.chunks.slice(0, n), end: 'open' };
      yield { ...full, connections: [...shown, partial] };
    }
    shown.push(record);
  }
  yield full;
}

function payloadOf(capture: Capture): number {
  return capture.connections.reduce((n, c) => n + c.chunks.reduce((m, k) => m + k.bytes.byteLength, 0), 0);
}

function measure(name: string, mode: Measured['mode']): Measured {
  const def = CASES[name];
  if (!def) throw new Error(`unknown case ${name}`);
  const capture = def.capture();
  const base = heapNow();
  let kept: { analysis: Analysis; analyzer?: unknown };
  if (mode === 'one-shot') kept = { analysis: analyze(capture) };
  else {
    const analyzer = createAnalyzer();
    let analysis: Analysis | undefined;
    for (const step of growing(capture, def.chunksPerStep)) analysis = analyzer(step);
    kept = { analysis: analysis as Analysis, analyzer };
  }
  const after = heapNow();
  const heapDelta = after.heap - base.heap;
  const externalDelta = after.external - base.external;
  const result: Measured = {
    name,
    mode,
    payload: payloadOf(capture),
    baseline: base.heap + base.external,
    after: after.heap + after.external,
    heapDelta,
    externalDelta,
    events: kept.analysis.events.length,
    findings: kept.analysis.findings.length,
  };
  // Held to here, so nothing of it was collected before the measure.
  if (kept.analysis.events.length < 0 || capture.connections.length < 0) throw new Error('unreachable');
  return result;
}

const MB = (n: number) => (n / 1e6).toFixed(1);

function row(m: Measured): string {
  const derived = (m.heapDelta + m.externalDelta) / m.payload;
  return [
    `${m.name} (${m.mode})`.padEnd(35),
    `payload ${MB(m.payload).padStart(6)} MB`,
    `derived ${MB(m.heapDelta + m.externalDelta).padStart(6)} MB`,
    `(heap ${MB(m.heapDelta)} + buffers ${MB(m.externalDelta)})`,
    `= ${derived.toFixed(2)}x`,
    `${m.events} events, ${m.findings} findings`,
  ].join('  ');
}

function child(name: string, mode: Measured['mode']): Measured {
  const script = fileURLToPath(import.meta.url);
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, '--child', name, mode], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split('\n').at(-1) as string) as Measured;
}

function main(): void {
  const [flag, name, mode] = process.argv.slice(2);
  if (flag === '--child' && name && (mode === 'streamed' || mode === 'one-shot')) {
    process.stdout.write(`${JSON.stringify(measure(name, mode))}\n`);
    return;
  }
  const names = flag ? [flag] : Object.keys(CASES);
  let worst = 0;
  for (const caseName of names) {
    for (const m of [child(caseName, 'streamed'), child(caseName, 'one-shot')]) {
      const derived = (m.heapDelta + m.externalDelta) / m.payload;
      process.stdout.write(`${row(m)}\n`);
      if (m.mode === 'streamed') {
        worst = Math.max(worst, derived);
        process.stdout.write(
          `BENCH core-memory-${caseName} derived=${derived.toFixed(2)}x target=${TARGET.toFixed(1)}x ${derived <= TARGET ? 'PASS' : 'FAIL'}\n`,
        );
      }
    }
  }
  process.stdout.write(
    `BENCH core-memory derived=${worst.toFixed(2)}x target=${TARGET.toFixed(1)}x ${worst <= TARGET ? 'PASS' : 'FAIL'}\n`,
  );
}

main();
