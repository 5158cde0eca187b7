// Runs in Node tests (and any page): a fetch that records each exchange as the core's raw
// ConnectionRecord (request, response head, body chunks with times, end reason) while handing
// the caller the same bytes. Lets the lab tests see the wire without a browser.
import type { ConnectionRecord, HttpHeader } from '../../../src/core/capture/model';
import type { FetchLike } from './fetch-like';

export interface Recorder {
  fetch: FetchLike;
  connections: ConnectionRecord[];
}

function headerList(headers: HeadersInit | undefined): HttpHeader[] {
  const list: HttpHeader[] = [];
  new Headers(headers).forEach((value, name) => list.push({ name, value }));
  return list;
}

function endOf(error: unknown, signal: AbortSignal | null | undefined): ConnectionRecord['end'] {
  if (signal?.aborted) return 'aborted';
  return error instanceof Error && error.name === 'AbortError' ? 'aborted' : 'network-error';
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
}

/** Records every request made through it; `only` limits recording to matching URLs. */
export function recordingFetch(
  inner: FetchLike = (url, init) => fetch(url, init),
  only: (url: URL) => boolean = () => true,
): Recorder {
  const connections: ConnectionRecord[] = [];
  let next = 1;
  const recording: FetchLike = async (input, init) => {
    const url = new URL(String(input));
    if (!only(url)) return inner(input, init);
    const record: ConnectionRecord = {
      id: `c${next++}`,
      source: 'fetch',
      method: init?.method ?? 'GET',
      url: url.href,
      requestHeaders: headerList(init?.headers),
      requestBody: typeof init?.body === 'string' ? init.body : undefined,
      startTime: Date.now(),
      chunks: [],
      end: 'open',
    };
    connections.push(record);
    const finish = (end: ConnectionRecord['end'], error?: unknown): void => {
      if (record.end !== 'open') return;
      record.end = end;
      record.endTime = Date.now();
      if (error !== undefined) record.error = describe(error);
    };
    // As the inspector's tap does: an abort ends the record at once, even when nobody reads the body any more.
    const signal = init?.signal;
    signal?.addEventListener('abort', () => finish('aborted', signal.reason ?? 'aborted'), { once: true });
    let response: Response;
    try {
      response = await inner(input, init);
    } catch (error) {
      finish(endOf(error, init?.signal), error);
      throw error;
    }
    record.status = response.status;
    record.statusText = response.statusText;
    record.responseHeaders = headerList(response.headers);
    record.responseTime = Date.now();
    const body = response.body;
    if (!body) {
      finish('complete');
      return response;
    }
    const reader = body.getReader();
    const copy = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { value, done } = await reader.read();
          if (done) {
            finish('complete');
            controller.close();
            return;
          }
          // Bytes read after the record ended (an abort raced the read) are handed on but not recorded, as by the tap.
          if (record.end === 'open') record.chunks.push({ t: Date.now(), bytes: value });
          controller.enqueue(value);
        } catch (error) {
          finish(endOf(error, init?.signal), error);
          controller.error(error);
        }
      },
      cancel(reason) {
        finish('aborted', reason ?? 'cancelled by the reader');
        return reader.cancel(reason);
      },
    });
    return new Response(copy, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetch: recording, connections };
}

/** The body of a recorded connection as text. */
export function bodyText(record: ConnectionRecord): string {
  const decoder = new TextDecoder();
  return record.chunks.map((chunk) => decoder.decode(chunk.bytes, { stream: true })).join('') + decoder.decode();
}

export function requestHeader(record: ConnectionRecord, name: string): string | undefined {
  return record.requestHeaders.find((header) => header.name.toLowerCase() === name.toLowerCase())?.value;
}
