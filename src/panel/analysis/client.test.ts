import { describe, expect, it } from 'vitest';
import { loadInput } from '../../core/capture/load';
import { readFixture } from '../../core/fixtures-dir.fixture';
import type { PanelFeed } from '../../protocol/messages';
import { recordToDeltas } from '../state/records';
import { chunkBuffers, createAnalysisClient, type AnalysisListener, type WorkerPort } from './client';
import { inlineWorker } from './inline';
import type { UiToWorker, ViewWire, WorkerToUi } from './messages';

function fakePort() {
  const posted: Array<{ message: UiToWorker; transfer: Transferable[] }> = [];
  const listeners: Array<(event: MessageEvent<unknown>) => void> = [];
  const port: WorkerPort = {
    postMessage: (message, transfer) => posted.push({ message, transfer }),
    addEventListener: (type: string, listener: (event: never) => void) => {
      if (type === 'message') listeners.push(listener as (event: MessageEvent<unknown>) => void);
    },
    terminate: () => undefined,
  };
  const answer = (data: unknown) => listeners.forEach((l) => l(new MessageEvent('message', { data })));
  return { port, posted, answer };
}

function recorder(): AnalysisListener & { got: WorkerToUi[]; seqs: number[]; errors: string[] } {
  const got: WorkerToUi[] = [];
  const seqs: number[] = [];
  const errors: string[] = [];
  return { got, seqs, errors, message: (m) => got.push(m), sent: (s) => seqs.push(s), error: (e) => errors.push(e) };
}

const chunks = (...parts: Uint8Array[]): PanelFeed => ({
  type: 'deltas',
  tabId: 1,
  deltas: parts.map((bytes, i) => ({ kind: 'chunk', id: 'c1', t: i, bytes })),
});

describe('the UI thread end of the analysis worker', () => {
  it('transfers each chunk buffer once when the transport gave the message away, and copies otherwise', () => {
    const shared = new ArrayBuffer(8);
    const message = chunks(new Uint8Array(shared, 0, 4), new Uint8Array(shared, 4, 4), new Uint8Array(2));
    expect(chunkBuffers(message)).toHaveLength(2);
    expect(chunkBuffers(message)[0]).toBe(shared);
    const { port, posted } = fakePort();
    const client = createAnalysisClient(port, recorder());
    client.forward(message, true);
    client.forward(message, false);
    expect(posted.map((p) => p.transfer.length)).toEqual([2, 0]);
  });

  it('numbers every command that changes the view, and reports those that change records as sent', () => {
    const { port, posted } = fakePort();
    const listener = recorder();
    const client = createAnalysisClient(port, listener);
    client.forward(chunks(new Uint8Array(1)), false);
    client.choices({ filterText: '', severities: { error: true, warning: true, info: true }, truncateBytes: 1 });
    client.recording(false);
    client.rows(1, 0, 10);
    client.clear();
    client.importFile('x.har', new Blob([]));
    const seqs = posted.map((p) => ('seq' in p.message ? p.message.seq : undefined));
    expect(seqs).toEqual([1, 2, 3, undefined, 4, 5]);
    expect(listener.seqs).toEqual([1, 3, 4, 5]);
    expect(client.recordsSeq).toBe(5);
  });

  it('hands on decoded answers, and says so when one cannot be trusted', () => {
    const { port, answer } = fakePort();
    const listener = recorder();
    createAnalysisClient(port, listener);
    answer({ type: 'imported', seq: 3, name: 'x.har', connections: 2, extra: true });
    answer({ type: 'imported', seq: 'three' });
    expect(listener.got).toEqual([{ type: 'imported', seq: 3, name: 'x.har', connections: 2 }]);
    expect(listener.errors).toHaveLength(1);
  });

  it('with the real host behind it: a view arrives that reflects the last records sent, chunks moved, not copied', async () => {
    const { har, ndjson } = readFixture('cut-mid-event');
    const capture = loadInput(new TextEncoder().encode(har), 'capture.har', { chunksNdjson: ndjson });
    const deltas = capture.connections.flatMap((c) => recordToDeltas({ ...c, source: 'fetch' }));
    const listener = recorder();
    const client = createAnalysisClient(inlineWorker(), listener);
    client.rows(0, 0, 30);
    const message: PanelFeed = {
      type: 'snapshot',
      tabId: 1,
      pageUrl: 'http://x/',
      deltas,
      preserveLog: false,
      droppedBytes: 0,
    };
    const first = deltas.find((d) => d.kind === 'chunk');
    client.forward(message, true);
    // Transferred: this thread no longer holds the bytes.
    expect(first?.kind === 'chunk' && first.bytes.byteLength).toBe(0);
    const view = await new Promise<ViewWire>((resolve) => {
      const poll = () => {
        const v = listener.got.findLast((m) => m.type === 'view');
        if (v?.type === 'view' && v.view.seq >= client.recordsSeq) resolve(v.view);
        else setTimeout(poll, 5);
      };
      poll();
    });
    client.stop();
    expect(view.totals.connections).toBe(capture.connections.length);
    expect(view.findings.map((f) => f.rule)).toContain('torn-event-reconnect');
    expect(view.rows.rows.length).toBeGreaterThan(0);
  });
});
