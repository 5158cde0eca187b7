import { describe, expect, it } from 'vitest';
import { createAnalyzer, type Analysis } from '../../core/analyze';
import { syntheticCapture } from '../../core/capture/synthetic.fixture';
import { recordsToCapture } from '../state/capture';
import { applyDeltas, emptyRecords, recordToDeltas } from '../state/records';
import { createIdSearch } from './id-search';

/** The analyses of a growing capture, pass by pass, as the worker makes them. */
function passes(events: number, count: number): Analysis[] {
  const deltas = syntheticCapture(events).connections.flatMap((c) => recordToDeltas(c));
  const analyze = createAnalyzer();
  const step = Math.ceil(deltas.length / count);
  const out: Analysis[] = [];
  let records = emptyRecords;
  for (let i = 0; i < deltas.length; i += step) {
    records = applyDeltas(records, deltas.slice(i, i + step));
    out.push(analyze(recordsToCapture(records, { toolVersion: 'test', createdAt: 0 })));
  }
  return out;
}

/** What a search of every event finds: the first of the connection's events with that own id. */
function scan(analysis: Analysis, connectionId: string, id: string): number | undefined {
  const connection = analysis.connections.find((c) => c.id === connectionId);
  return [...(connection?.eventIndexes ?? [])].find((i) => {
    const e = analysis.events.at(i);
    return e?.hasId === true && e.lastEventId === id;
  });
}

describe('id search', () => {
  it('finds, pass after pass, what a search of every event finds, also an id that arrives later', () => {
    const all = passes(3_000, 6);
    const search = createIdSearch();
    const asked = ['5', '1500', '2999', 'never'];
    let found = 0;
    for (const analysis of all) {
      for (const connection of analysis.connections) {
        for (const id of asked) {
          const expected = scan(analysis, connection.id, id);
          expect(search.find(analysis.events, connection, id)).toBe(expected);
          if (expected !== undefined) found++;
        }
      }
    }
    // The ids were found once their events arrived (and not before), in the stream that carries them.
    expect(found).toBeGreaterThan(6);
    const last = all.at(-1) as Analysis;
    expect(last.connections.some((c) => search.find(last.events, c, '2999') !== undefined)).toBe(true);
  });

  it('starts over on an analysis that does not continue the last one', () => {
    const search = createIdSearch();
    const first = createAnalyzer()(syntheticCapture(400));
    const other = createAnalyzer()(syntheticCapture(40));
    for (const c of first.connections) search.find(first.events, c, '20');
    for (const c of other.connections) expect(search.find(other.events, c, '20')).toBe(scan(other, c.id, '20'));
  });
});
