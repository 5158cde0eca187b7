import { describe, expect, it } from 'vitest';
import { analyze } from '../../core/analyze';
import type { ConnectionRecord } from '../../core/capture/model';
import { loadInput } from '../../core/capture/load';
import { readFixture } from '../../core/fixtures-dir.fixture';
import { buildPanelView } from './model';
import { QUIET_MARK_MS, quietStretches } from './quiet';
import { captureEnd, layoutTimeline } from './timeline';

const bytes = new TextEncoder().encode(': ping\n\n');
/** A stream whose response head came at 10 and whose chunks came at the times given. */
function stream(times: number[], end: Partial<ConnectionRecord> = { end: 'open' }): ConnectionRecord {
  return {
    id: 'c1',
    source: 'fetch',
    method: 'GET',
    url: 'http://127.0.0.1:3000/mcp',
    requestHeaders: [],
    startTime: 0,
    status: 200,
    responseTime: 10,
    chunks: times.map((t) => ({ t, bytes })),
    end: 'complete',
    ...end,
  };
}

describe('quiet stretches of a row', () => {
  it('marks each span with no byte of at least QUIET_MARK_MS, from the head through the chunks to the end', () => {
    const record = stream([100, 100 + QUIET_MARK_MS, 100 + QUIET_MARK_MS + 50], { end: 'complete', endTime: 9_000 });
    expect(quietStretches(record, 20_000, false)).toEqual([
      { from: 100, to: 100 + QUIET_MARK_MS },
      { from: 100 + QUIET_MARK_MS + 50, to: 9_000 },
    ]);
  });

  it('runs an open stream’s silence to now, as waiting only when a request waits on it', () => {
    const record = stream([100]);
    expect(quietStretches(record, 40_000, true)).toEqual([{ from: 100, to: 40_000, waiting: true }]);
    expect(quietStretches(record, 40_000, false)).toEqual([{ from: 100, to: 40_000 }]);
  });

  it('leaves a lively stream and a request not yet answered (no head) alone', () => {
    const lively = stream(
      Array.from({ length: 500 }, (_, i) => 20 + i * 100),
      { end: 'complete', endTime: 50_100 },
    );
    expect(quietStretches(lively, 60_000, false)).toEqual([]);
    expect(quietStretches({ ...stream([]), responseTime: undefined }, 60_000, true)).toEqual([]);
  });

  it('keeps the 20 longest of many, in time order', () => {
    let at = 10;
    const times = Array.from({ length: 40 }, (_, i) => (at += QUIET_MARK_MS + i));
    const found = quietStretches(stream(times, { end: 'complete', endTime: times.at(-1) }), 0, false);
    expect(found).toHaveLength(20);
    expect(found.every((q, i) => i === 0 || q.from > (found[i - 1]?.from ?? 0))).toBe(true);
    expect(found[0]?.to).toBe(times[20]);
  });
});

describe('quiet stretches on the timeline of real recordings', () => {
  function layoutOf(name: 'nginx-idle-get-cut' | 'nginx-keepalive-fixed', waiting = new Set<string>()) {
    const { har, ndjson } = readFixture(name);
    const capture = loadInput(new TextEncoder().encode(har), 'capture.har', { chunksNdjson: ndjson });
    const view = buildPanelView(analyze(capture));
    const end = captureEnd(capture.connections);
    return layoutTimeline(view, undefined, [], end, undefined, waiting);
  }

  it('nginx-idle-get-cut: every idle GET stream nginx cut shows its silence, head to cut, before the cut', () => {
    const cutGets = layoutOf('nginx-idle-get-cut').rows.filter(
      (r) => r.label === 'GET stream' && r.endReason === 'network-error',
    );
    expect(cutGets.length).toBeGreaterThan(1);
    for (const row of cutGets) expect(row.quiet).toEqual([{ from: row.responseTime, to: row.end }]);
  });

  it('nginx-keepalive-fixed: keep-alives inside the timeout leave no quiet stretch on the GET stream', () => {
    const gets = layoutOf('nginx-keepalive-fixed').rows.filter((r) => r.label.startsWith('GET'));
    expect(gets.length).toBeGreaterThan(0);
    expect(gets.flatMap((r) => r.quiet ?? [])).toEqual([]);
  });
});
