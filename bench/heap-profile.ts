// Runs in Node (`node --expose-gc --import tsx bench/heap-profile.ts [case] [top]`): where the analysis's memory
// goes, by constructor, from two heap snapshots (the capture alone, then with the streamed analysis); not shipped.
/*
 * How to read it
 * - The case is one of bench/memory.bench.ts's (default synthetic-100k), streamed through createAnalyzer the same
 *   way. A snapshot is written before (the capture alone) and after (the analyzer and its last analysis held).
 * - Rows are classes as DevTools names them (constructor, or (string), (array), (number)...): count and shallow
 *   size added since the baseline, and retained size in the second snapshot (dominator tree; an object dominated
 *   by another of its class counts once, in that one). Sorted by shallow size added.
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { createAnalyzer, type Analysis } from '../src/core/analyze';
import type { Capture, ConnectionRecord } from '../src/core/capture/model';
import { bigResultsCapture } from '../src/core/capture/big-results.fixture';
import { sdkStyleId, syntheticCapture } from '../src/core/capture/synthetic.fixture';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

interface ClassRow {
  count: number;
  shallow: number;
  retained: number;
}

const CASES: Record<string, { capture: () => Capture; per: number }> = {
  'synthetic-100k': { capture: () => syntheticCapture(100_000), per: 64 },
  'synthetic-100k-sdk-ids': { capture: () => syntheticCapture(100_000, undefined, sdkStyleId), per: 64 },
  'big-20x4mib': { capture: () => bigResultsCapture(20, 4 * 1024 * 1024), per: 16 },
};

function* growing(full: Capture, per: number): Generator<Capture> {
  const shown: ConnectionRecord[] = [];
  for (const record of [...full.connections].sort((a, b) => a.startTime - b.startTime)) {
    for (let n = 0; n < record.chunks.length; n += per) {
      const { endTime: _endTime, ...open } = record;
      yield { ...full, connections: [...shown, { ...open, chunks: record.chunks.slice(0, n), end: 'open' }] };
    }
    shown.push(record);
  }
  yield full;
}

function snapshotNow(name: string): Snapshot {
  (globalThis as { gc?: () => void }).gc?.();
  const file = writeHeapSnapshot(join(tmpdir(), `heap-profile-${process.pid}-${name}.heapsnapshot`));
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  rmSync(file);
  return parsed;
}

let edgeStarts: Int32Array | undefined;

/** The first property names of a plain object (plain objects differ by shape, not constructor). */
function propertyNames(s: Snapshot, node: number): string {
  const fields = s.snapshot.meta.node_fields;
  const width = fields.length;
  const edgeWidth = s.snapshot.meta.edge_fields.length;
  const property = s.snapshot.meta.edge_types[0].indexOf('property');
  if (!edgeStarts) {
    const count = s.nodes.length / width;
    edgeStarts = new Int32Array(count + 1);
    const at = fields.indexOf('edge_count');
    for (let n = 0; n < count; n++) edgeStarts[n + 1] = (edgeStarts[n] as number) + (s.nodes[n * width + at] as number);
  }
  const names: string[] = [];
  for (let e = edgeStarts[node] as number; e < (edgeStarts[node + 1] as number) && names.length < 4; e++)
    if (s.edges[e * edgeWidth] === property) names.push(s.strings[s.edges[e * edgeWidth + 1] as number] as string);
  return names.join(',');
}

/** The class of each node, DevTools style. */
function classes(s: Snapshot): string[] {
  const fields = s.snapshot.meta.node_fields;
  const width = fields.length;
  const types = s.snapshot.meta.node_types[0];
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const out: string[] = [];
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + typeAt] as number] as string;
    const name = s.strings[s.nodes[i + nameAt] as number] as string;
    if (type === 'object' && name === 'Object') out.push(`Object {${propertyNames(s, i / width)}}`);
    else if (type === 'object' || type === 'native') out.push(name);
    else if (type === 'string' || type === 'concatenated string' || type === 'sliced string') out.push('(string)');
    else if (type === 'closure') out.push('(closure)');
    else if (type === 'number') out.push('(number)');
    else if (type === 'array') out.push(`(array${name ? ` ${name}` : ''})`);
    else out.push(`(${type}${name.startsWith('system /') ? ` ${name}` : ''})`);
  }
  return out;
}

/** Immediate dominators over strong edges (Cooper, Harvey, Kennedy), node 0 the root. */
function dominators(s: Snapshot): { idom: Int32Array; order: Int32Array } {
  const fields = s.snapshot.meta.node_fields;
  const width = fields.length;
  const edgeWidth = s.snapshot.meta.edge_fields.length;
  const edgeTypes = s.snapshot.meta.edge_types[0];
  const weak = edgeTypes.indexOf('weak');
  const shortcut = edgeTypes.indexOf('shortcut');
  const count = s.nodes.length / width;
  const edgeCountAt = fields.indexOf('edge_count');
  const firstEdge = new Int32Array(count + 1);
  for (let n = 0; n < count; n++)
    firstEdge[n + 1] = (firstEdge[n] as number) + (s.nodes[n * width + edgeCountAt] as number);
  const strong = (e: number) => s.edges[e * edgeWidth] !== weak && s.edges[e * edgeWidth] !== shortcut;
  const target = (e: number) => (s.edges[e * edgeWidth + 2] as number) / width;
  // Post order by an explicit stack.
  const post = new Int32Array(count).fill(-1);
  const order = new Int32Array(count);
  let visited = 0;
  const seen = new Uint8Array(count);
  const stack: number[] = [0];
  const cursor = new Int32Array(count);
  seen[0] = 1;
  for (let n = 0; n < count; n++) cursor[n] = firstEdge[n] as number;
  while (stack.length > 0) {
    const n = stack[stack.length - 1] as number;
    if ((cursor[n] as number) < (firstEdge[n + 1] as number)) {
      const e = cursor[n] as number;
      cursor[n] = e + 1;
      const t = target(e);
      if (strong(e) && !seen[t]) {
        seen[t] = 1;
        stack.push(t);
      }
      continue;
    }
    stack.pop();
    post[n] = visited;
    order[visited++] = n;
  }
  // Predecessors.
  const predCount = new Int32Array(count + 1);
  for (let n = 0; n < count; n++)
    if (seen[n])
      for (let e = firstEdge[n] as number; e < (firstEdge[n + 1] as number); e++)
        if (strong(e)) predCount[target(e) + 1] = (predCount[target(e) + 1] as number) + 1;
  for (let n = 0; n < count; n++) predCount[n + 1] = (predCount[n + 1] as number) + (predCount[n] as number);
  const preds = new Int32Array(predCount[count] as number);
  const fill = predCount.slice();
  for (let n = 0; n < count; n++)
    if (seen[n])
      for (let e = firstEdge[n] as number; e < (firstEdge[n + 1] as number); e++)
        if (strong(e)) {
          const t = target(e);
          preds[fill[t] as number] = n;
          fill[t] = (fill[t] as number) + 1;
        }
  const idom = new Int32Array(count).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while ((post[a] as number) < (post[b] as number)) a = idom[a] as number;
      while ((post[b] as number) < (post[a] as number)) b = idom[b] as number;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let i = visited - 2; i >= 0; i--) {
      const n = order[i] as number;
      let best = -1;
      for (let p = predCount[n] as number; p < (predCount[n + 1] as number); p++) {
        const q = preds[p] as number;
        if (idom[q] === -1) continue;
        best = best === -1 ? q : intersect(q, best);
      }
      if (best !== -1 && idom[n] !== best) {
        idom[n] = best;
        changed = true;
      }
    }
  }
  return { idom, order: order.subarray(0, visited) };
}

function summarise(s: Snapshot): Map<string, ClassRow> {
  edgeStarts = undefined;
  const width = s.snapshot.meta.node_fields.length;
  const sizeAt = s.snapshot.meta.node_fields.indexOf('self_size');
  const names = classes(s);
  const { idom, order } = dominators(s);
  const retained = new Float64Array(names.length);
  for (let n = 0; n < names.length; n++) retained[n] = s.nodes[n * width + sizeAt] as number;
  // Post order: children before their dominators.
  for (const n of order) {
    const dom = idom[n] as number;
    if (n !== 0 && dom >= 0) retained[dom] = (retained[dom] as number) + (retained[n] as number);
  }
  const rows = new Map<string, ClassRow>();
  for (let n = 0; n < names.length; n++) {
    const name = names[n] as string;
    let row = rows.get(name);
    if (!row) rows.set(name, (row = { count: 0, shallow: 0, retained: 0 }));
    row.count++;
    row.shallow += s.nodes[n * width + sizeAt] as number;
    const dom = idom[n] as number;
    if (dom >= 0 && (n === 0 || names[dom] !== name)) row.retained += retained[n] as number;
  }
  return rows;
}

function main(): void {
  const name = process.argv[2] ?? 'synthetic-100k';
  const top = Number(process.argv[3] ?? 25);
  const def = CASES[name];
  if (!def) throw new Error(`unknown case ${name}`);
  const capture = def.capture();
  const before = summarise(snapshotNow('before'));
  const analyzer = createAnalyzer();
  let analysis: Analysis | undefined;
  for (const step of growing(capture, def.per)) analysis = analyzer(step);
  const after = summarise(snapshotNow('after'));
  const rows = [...after].map(([cls, row]) => {
    const base = before.get(cls);
    return {
      cls,
      count: row.count - (base?.count ?? 0),
      shallow: row.shallow - (base?.shallow ?? 0),
      retained: row.retained,
    };
  });
  rows.sort((a, b) => b.shallow - a.shallow);
  const total = rows.reduce((n, r) => n + r.shallow, 0);
  process.stdout.write(
    `${name}: ${analysis?.events.length ?? 0} events; shallow size added ${(total / 1e6).toFixed(1)} MB\n`,
  );
  process.stdout.write(
    `${'class'.padEnd(44)} ${'count+'.padStart(9)} ${'shallow+ MB'.padStart(11)} ${'retained MB'.padStart(11)}\n`,
  );
  for (const r of rows.slice(0, top))
    process.stdout.write(
      `${r.cls.slice(0, 44).padEnd(44)} ${String(r.count).padStart(9)} ${(r.shallow / 1e6).toFixed(2).padStart(11)} ${(r.retained / 1e6).toFixed(2).padStart(11)}\n`,
    );
  if (!analyzer || !capture) throw new Error('unreachable');
}

main();
