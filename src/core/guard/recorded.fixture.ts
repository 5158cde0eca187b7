// Node (rule tests): the lab's recordings of real SDK traffic (fixtures/) as captures, and the rewrites that turn
// real clean traffic into each violation a rule must find (a header changed, a body field altered, an event added).
import type { Capture, ConnectionRecord, HttpHeader } from '../capture/model';
import { importHar } from '../capture/har';
import { readFixture } from '../fixtures-dir.fixture';
import { TextDecoder, TextEncoder } from '../web/globals';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A recorded fixture (HAR + chunk timings), imported as the product imports it. */
export function recorded(name: string): Capture {
  const { har, ndjson } = readFixture(name);
  return importHar(har, { chunksNdjson: ndjson });
}

/** The JSON-RPC method of a record's request body ('response' for an answer, undefined for none). */
export function rpcMethod(record: ConnectionRecord): string | undefined {
  if (!record.requestBody) return undefined;
  const body = JSON.parse(record.requestBody) as { method?: string };
  return body.method ?? 'response';
}

/** The `nth` record (0-based) whose request is `method` (and, for tools/call, names tool `name`). */
export function exchange(capture: Capture, method: string, name?: string, nth = 0): ConnectionRecord {
  const matching = capture.connections.filter((r) => {
    if (rpcMethod(r) !== method) return false;
    if (name === undefined) return true;
    const params = (JSON.parse(r.requestBody ?? '{}') as { params?: { name?: string } }).params;
    return params?.name === name;
  });
  const found = matching[nth];
  if (!found) throw new Error(`no ${method}${name ? ` ${name}` : ''} #${nth} in the recording`);
  return found;
}

/** A copy of the capture whose records can be edited without touching the original. */
export function rewritten(capture: Capture, edit: (copy: Capture) => void): Capture {
  const copy: Capture = {
    ...capture,
    connections: capture.connections.map((r) => {
      const record: ConnectionRecord = {
        ...r,
        requestHeaders: r.requestHeaders.map((h) => ({ ...h })),
        chunks: r.chunks.map((c) => ({ ...c, bytes: c.bytes.slice() })),
      };
      if (r.responseHeaders) record.responseHeaders = r.responseHeaders.map((h) => ({ ...h }));
      return record;
    }),
  };
  edit(copy);
  return copy;
}

/** Sets (or, with undefined, removes) header `name` in a list, keeping the others in place. */
export function setHeader(list: HttpHeader[], name: string, value: string | undefined): void {
  const at = list.findIndex((h) => h.name.toLowerCase() === name.toLowerCase());
  if (value === undefined) {
    if (at >= 0) list.splice(at, 1);
  } else if (at >= 0) list[at] = { name: list[at]?.name ?? name, value };
  else list.push({ name, value });
}

/** Rewrites the JSON request body of a record in place. */
export function editRequest(record: ConnectionRecord, edit: (body: Record<string, unknown>) => void): void {
  const body = JSON.parse(record.requestBody ?? '{}') as Record<string, unknown>;
  edit(body);
  record.requestBody = JSON.stringify(body);
}

/** The response body as text. */
export function responseText(record: ConnectionRecord): string {
  return record.chunks.map((c) => decoder.decode(c.bytes, { stream: true })).join('') + decoder.decode();
}

/** Replaces the response body with `text`, delivered in one chunk when the first one came. */
export function setResponseText(record: ConnectionRecord, text: string): void {
  const t = record.chunks[0]?.t ?? record.responseTime ?? record.startTime;
  record.chunks = [{ t, bytes: encoder.encode(text) }];
}
