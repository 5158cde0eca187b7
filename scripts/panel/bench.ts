// Dev script (Node): what streaming a 100k-event capture costs the panel, step by step:
// folding wire deltas, analysing, building the view indexes, filtering, and laying out the timeline.
// Usage: npx tsx scripts/panel/bench.ts [events]   (default 100000)
import { analyze } from '../../src/core/analyze';
import { recordsToCapture } from '../../src/panel/state/capture';
import { applyDeltas, emptyRecords, recordToDeltas } from '../../src/panel/state/records';
import { parseFilter } from '../../src/panel/view/filter';
import { visibleEventIndexes } from '../../src/panel/view/lists';
import { buildPanelView } from '../../src/panel/view/model';
import { captureEnd, layoutTimeline } from '../../src/panel/view/timeline';
import { syntheticCapture } from '../../src/core/capture/synthetic.fixture';

function time<T>(label: string, run: () => T, repeat = 3): T {
  let result = run();
  const costs: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const begun = performance.now();
    result = run();
    costs.push(performance.now() - begun);
  }
  costs.sort((a, b) => a - b);
  process.stdout.write(`${label.padEnd(44)} ${costs[Math.floor(costs.length / 2)]!.toFixed(1).padStart(8)} ms\n`);
  return result;
}

const events = Number(process.argv[2] ?? 100_000);
const capture = syntheticCapture(events);
const deltas = capture.connections.flatMap((c) => recordToDeltas(c));
const bodyBytes = capture.connections.reduce((n, c) => n + c.chunks.reduce((m, k) => m + k.bytes.length, 0), 0);
process.stdout.write(`${events} events, ${deltas.length} deltas, ${(bodyBytes / 1e6).toFixed(1)} MB of body\n`);

const records = time('applyDeltas, all at once', () => applyDeltas(emptyRecords, deltas));
time('applyDeltas, in batches of 50', () => {
  let state = emptyRecords;
  for (let i = 0; i < deltas.length; i += 50) state = applyDeltas(state, deltas.slice(i, i + 50));
  return state;
});
const analysis = time('analyze (whole capture)', () =>
  analyze(recordsToCapture(records, { toolVersion: 'bench', createdAt: 0 })),
);
const view = time('buildPanelView', () => buildPanelView(analysis));
time('visible events, no filter', () => visibleEventIndexes(view, undefined, parseFilter('')));
time('visible events, filter "progress -99"', () => visibleEventIndexes(view, undefined, parseFilter('progress -99')));
time('layoutTimeline', () =>
  layoutTimeline(
    view,
    undefined,
    analysis.findings.map((_, i) => i),
    captureEnd(records.connections),
  ),
);
process.stdout.write(`findings: ${analysis.findings.map((f) => f.rule).join(', ') || 'none'}\n`);
