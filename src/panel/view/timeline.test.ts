import { describe, expect, it } from 'vitest';
import { analyze } from '../../core/analyze';
import { parseTranscript } from '../../core/guard/transcript';
import { buildPanelView } from './model';
import type { ConnectionRecord } from '../../core/capture/model';
import { fixtureEntries } from '../../core/fixtures-dir.fixture';
import { cutAndResume, exampleView } from './fixtures.test-util';
import { captureEnd, chunkTimeAt, layoutTimeline, LINK_LABEL_BAND, ROW_HEIGHT } from './timeline';

const torn = exampleView('cut-mid-event');
const { cut, resume } = cutAndResume(torn);
const entries = fixtureEntries('cut-mid-event');
const end = captureEnd(torn.analysis.connections.map((c) => c.record));
const allFindings = torn.analysis.findings.map((_, i) => i);

describe('timeline layout on the cut-mid-event SDK recording', () => {
  const layout = layoutTimeline(torn, undefined, allFindings, end);
  const rowOf = (id: string) => layout.rows.findIndex((r) => r.connectionId === id);

  it('gives each stream a lane, and puts a resumption in the lane of the stream it resumed', () => {
    // Lanes in the order their streams began; the standalone GET races the tools/call POST in the SDK client.
    const getFirst =
      entries.findIndex((e) => e.method === 'GET') < entries.findIndex((e) => e.rpcMethod === 'tools/call');
    const middle = getFirst ? ['GET stream', 'POST tools/call #1'] : ['POST tools/call #1', 'GET stream'];
    expect(layout.lanes.map((l) => l.label)).toEqual(['POST initialize #0', ...middle, 'HTTP']);
    const post = layout.rows[rowOf(cut)]!;
    const resumed = layout.rows[rowOf(resume)]!;
    expect(post.laneIndex).toBe(resumed.laneIndex);
    expect(layout.lanes[post.laneIndex]?.label).toBe('POST tools/call #1');
    expect(resumed.y).toBe(post.y + ROW_HEIGHT);
    expect(resumed.label).toBe('GET resume');
  });

  it('puts connections that carry no stream (the initialized notification) in an HTTP lane', () => {
    const http = layout.lanes.findIndex((l) => l.label === 'HTTP');
    const initialized = entries.find((e) => e.rpcMethod === 'notifications/initialized')!;
    expect(initialized.status).toBe(202);
    expect(layout.rows.filter((r) => r.laneIndex === http).map((r) => r.connectionId)).toEqual([initialized.id]);
  });

  it('draws a reconnect link from the cut connection to the one that resumed it, with its Last-Event-ID', () => {
    expect(layout.links).toHaveLength(1);
    const link = layout.links[0]!;
    expect(layout.rows[link.fromRow]!.connectionId).toBe(cut);
    expect(layout.rows[link.toRow]!.connectionId).toBe(resume);
    expect(link.lastEventId).toBe(entries.find((e) => e.id === resume)!.requestHeaders['last-event-id']);
    expect(link.fromTime).toBe(layout.rows[link.fromRow]!.end);
    expect(link.toTime).toBe(layout.rows[link.toRow]!.start);
  });

  it('marks the torn tail of the cut connection from the chunk that carried it', () => {
    const post = layout.rows[rowOf(cut)]!;
    expect(post.endReason).toBe('network-error');
    // The torn event: its event and id lines, then 60 bytes of its data.
    const body = entries.find((e) => e.id === cut)!.body;
    expect(post.torn?.bytes).toBe(body.length - body.lastIndexOf('event: message\n'));
    expect(post.torn?.bytes).toBeGreaterThan(60);
    // From the chunk holding the first torn byte (the proxy wrote the event's head, then the 60 data bytes).
    const record = torn.connectionsById.get(cut)!.record;
    const tornStart = body.lastIndexOf('event: message\n');
    let at = 0;
    const holding = record.chunks.find((c) => (at += c.bytes.length) > tornStart)!;
    expect(post.torn?.from).toBe(holding.t);
    expect(holding).not.toBe(record.chunks.at(-1));
    expect(post.torn!.from).toBeLessThanOrEqual(post.end);
    expect(layout.rows.filter((r) => r.torn).map((r) => r.connectionId)).toEqual([cut]);
  });

  it('has a tick per event at its time, and a marker per finding on its connection', () => {
    const resumed = layout.rows[rowOf(resume)]!;
    expect(resumed.ticks).toHaveLength(torn.connectionsById.get(resume)!.eventIndexes.length);
    expect([...resumed.ticks]).toEqual([...resumed.ticks].sort((a, b) => a - b));
    const tornFinding = torn.analysis.findings.findIndex((f) => f.rule === 'torn-event-reconnect');
    const marker = layout.markers.find((m) => m.findingIndex === tornFinding);
    expect(marker?.rowIndex).toBe(rowOf(cut));
    expect(marker?.severity).toBe('warning');
  });

  it('spans from the first request to the end of the capture', () => {
    expect(layout.start).toBe(torn.analysis.sessions[0]!.startTime);
    expect(layout.end).toBe(end);
    expect(layout.height).toBe(
      layout.rows.length * ROW_HEIGHT + LINK_LABEL_BAND * layout.links.length + layout.lanes.length * 5,
    );
  });

  it('shows no markers for findings filtered out', () => {
    expect(layoutTimeline(torn, undefined, [], end).markers).toEqual([]);
  });
});

describe('chunk times', () => {
  const record = {
    chunks: [
      { t: 10, bytes: new Uint8Array(5) },
      { t: 20, bytes: new Uint8Array(5) },
    ],
  } as unknown as ConnectionRecord;
  it('finds the chunk holding a byte offset', () => {
    expect(chunkTimeAt(record, 0)).toBe(10);
    expect(chunkTimeAt(record, 4)).toBe(10);
    expect(chunkTimeAt(record, 5)).toBe(20);
    expect(chunkTimeAt(record, 99)).toBe(20);
  });
});

describe('timeline layout of a capture gap', () => {
  it('hatches the stretch of the bar whose bytes are missing: from the first lost byte to the next kept chunk', () => {
    const capture = parseTranscript(`> GET /mcp
> Mcp-Session-Id: s1
< 200
< Content-Type: text/event-stream
id: 1
data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}

? gap 4096 bytes
id: 9
data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":9}}

`);
    const record = capture.connections[0]!;
    const view = buildPanelView(analyze(capture));
    const layout = layoutTimeline(view, undefined, [], captureEnd(capture.connections));
    const gap = record.gaps![0]!;
    expect(layout.gaps).toEqual([
      { rowIndex: 0, from: gap.t, to: record.chunks[1]!.t, bytes: 4096, offset: gap.offset, cause: 'evicted' },
    ]);
  });
});
