import { describe, expect, it } from 'vitest';
import type { ConnectionRecord } from '../../core/capture/model';
import { exampleView } from './fixtures.test-util';
import { captureEnd, chunkTimeAt, layoutTimeline, LINK_LABEL_BAND, ROW_HEIGHT } from './timeline';

const torn = exampleView('torn-replay-boundary-sdk-inmemory');
const end = captureEnd(torn.analysis.connections.map((c) => c.record));
const allFindings = torn.analysis.findings.map((_, i) => i);

describe('timeline layout on the torn-replay SDK capture', () => {
  const layout = layoutTimeline(torn, undefined, allFindings, end);
  const rowOf = (id: string) => layout.rows.findIndex((r) => r.connectionId === id);

  it('gives each stream a lane, and puts a resumption in the lane of the stream it resumed', () => {
    expect(layout.lanes.map((l) => l.label)).toEqual(['POST initialize #0', 'GET stream', 'POST tools/call #1', 'HTTP']);
    const post = layout.rows[rowOf('e4')]!;
    const resume = layout.rows[rowOf('e5')]!;
    expect(post.laneIndex).toBe(resume.laneIndex);
    expect(resume.y).toBe(post.y + ROW_HEIGHT);
    expect(resume.label).toBe('GET resume');
  });

  it('puts connections that carry no stream (the initialized notification, the DELETE) in an HTTP lane', () => {
    const http = layout.lanes.findIndex((l) => l.label === 'HTTP');
    expect(layout.rows.filter((r) => r.laneIndex === http).map((r) => r.connectionId)).toEqual(['e2', 'e6']);
  });

  it('draws a reconnect link from the cut connection to the one that resumed it, with its Last-Event-ID', () => {
    expect(layout.links).toHaveLength(1);
    const link = layout.links[0]!;
    expect(layout.rows[link.fromRow]!.connectionId).toBe('e4');
    expect(layout.rows[link.toRow]!.connectionId).toBe('e5');
    expect(link.lastEventId).toBe('db173ed2-2e82-456d-a2d1-76c55b64efeb_1795967688811_ukzql3ku');
    expect(link.fromTime).toBe(layout.rows[link.fromRow]!.end);
    expect(link.toTime).toBe(layout.rows[link.toRow]!.start);
  });

  it('marks the torn tail of the cut connection from the chunk that carried it', () => {
    const post = layout.rows[rowOf('e4')]!;
    expect(post.endReason).toBe('network-error');
    expect(post.torn?.bytes).toBe(60);
    const record = torn.connectionsById.get('e4')!.record;
    expect(post.torn?.from).toBe(record.chunks[record.chunks.length - 1]!.t);
    expect(post.torn!.from).toBeLessThanOrEqual(post.end);
    expect(layout.rows.filter((r) => r.torn).map((r) => r.connectionId)).toEqual(['e4']);
  });

  it('has a tick per event at its time, and a marker per finding on its connection', () => {
    const resume = layout.rows[rowOf('e5')]!;
    expect(resume.ticks).toHaveLength(torn.connectionsById.get('e5')!.eventIndexes.length);
    expect(resume.ticks).toEqual([...resume.ticks].sort((a, b) => a - b));
    const tornFinding = torn.analysis.findings.findIndex((f) => f.rule === 'torn-event-reconnect');
    const marker = layout.markers.find((m) => m.findingIndex === tornFinding);
    expect(marker?.rowIndex).toBe(rowOf('e4'));
    expect(marker?.severity).toBe('warning');
  });

  it('spans from the first request to the end of the capture', () => {
    expect(layout.start).toBe(torn.analysis.sessions[0]!.startTime);
    expect(layout.end).toBe(end);
    expect(layout.height).toBe(layout.rows.length * ROW_HEIGHT + LINK_LABEL_BAND * layout.links.length + layout.lanes.length * 5);
  });

  it('shows no markers for findings filtered out', () => {
    expect(layoutTimeline(torn, undefined, [], end).markers).toEqual([]);
  });
});

describe('chunk times', () => {
  const record = { chunks: [{ t: 10, bytes: new Uint8Array(5) }, { t: 20, bytes: new Uint8Array(5) }] } as unknown as ConnectionRecord;
  it('finds the chunk holding a byte offset', () => {
    expect(chunkTimeAt(record, 0)).toBe(10);
    expect(chunkTimeAt(record, 4)).toBe(10);
    expect(chunkTimeAt(record, 5)).toBe(20);
    expect(chunkTimeAt(record, 99)).toBe(20);
  });
});
