// Runs in Node (the fault proxy): records every exchange as the client received it into the core's capture records
// (the same records the panel's tap makes), so the live analysis, `analyze` and the panel's Import read it.
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Capture, ConnectionRecord, EndReason, HttpHeader } from '../core/capture/model';
import { headerPairs } from './node-http';
import type { ExchangeRecorder, ExchangeTrace, TraceEnd } from './trace';

/** What changed in the recording: the live report re-analyses then. */
export type RecordingChange = 'start' | 'head' | 'chunk' | 'end';

const END_REASON: Record<TraceEnd, EndReason> = { complete: 'complete', failed: 'network-error', aborted: 'aborted' };
const utf8 = new TextDecoder();

/** Epoch ms with the monotonic clock's fraction, as the tap stamps its chunks. */
const now = (): number => performance.timeOrigin + performance.now();

export class CaptureRecorder implements ExchangeRecorder {
  private readonly records: ConnectionRecord[] = [];
  private readonly startedAt = Date.now();

  constructor(
    private readonly tool: { name: string; version: string },
    private readonly onChange: (record: ConnectionRecord, change: RecordingChange) => void = () => undefined,
  ) {}

  /** The recording so far (open exchanges stay `open`, watched until now: the silence rules measure up to it). */
  capture(): Capture {
    return { tool: this.tool, createdAt: this.startedAt, observedUntil: now(), connections: this.records };
  }

  begin(req: IncomingMessage, proxyUrl: string): ExchangeTrace {
    const record: ConnectionRecord = {
      id: `p${this.records.length + 1}`,
      // A proxy's view of the wire, as a HAR written by a recording proxy is.
      source: 'har',
      method: req.method ?? 'GET',
      url: new URL(req.url ?? '/', proxyUrl).href,
      requestHeaders: headerPairs(req.rawHeaders),
      startTime: now(),
      chunks: [],
      end: 'open',
    };
    this.records.push(record);
    this.onChange(record, 'start');
    let cut = false;
    return {
      requestBody: (body) => {
        if (body && body.length > 0) record.requestBody = utf8.decode(body);
      },
      rewritten: (headers, body) => {
        const replaced = new Set(Object.keys(headers));
        record.requestHeaders = [
          ...record.requestHeaders.filter((h) => !replaced.has(h.name.toLowerCase())),
          ...Object.entries(headers).map(([name, value]) => ({ name, value })),
        ];
        if (body && body.length > 0) record.requestBody = utf8.decode(body);
      },
      head: (status, statusText, headers) => {
        if (record.end !== 'open') return;
        record.status = status;
        record.statusText = statusText;
        record.responseHeaders = Object.entries(headers).flatMap(([name, value]): HttpHeader[] =>
          (Array.isArray(value) ? value : [value]).map((v) => ({ name, value: v })),
        );
        record.responseTime = now();
        this.onChange(record, 'head');
      },
      write: (bytes) => {
        if (bytes.length === 0 || record.end !== 'open') return;
        record.chunks.push({ t: now(), bytes: new Uint8Array(bytes) });
        this.onChange(record, 'chunk');
      },
      cut: () => {
        cut = true;
      },
      end: (how, error) => {
        if (record.end !== 'open') return;
        record.end = cut && how !== 'complete' ? 'network-error' : END_REASON[how];
        record.endTime = now();
        const why = cut ? 'cut by the fault proxy: the connection ended without the terminating chunk' : error;
        if (why !== undefined && record.end !== 'complete') record.error = why;
        this.onChange(record, 'end');
      },
    };
  }
}
