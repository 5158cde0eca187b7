// Bench page (evaluated by in-page.ts, so each function is self-contained: no imports, no outer names).
// What an MCP web client does: POST tools/call, read the SSE answer with fetch + getReader(), decode with
// TextDecoder, split events on blank lines and JSON.parse each event's data, as the SDK's client does.

export interface ReadRequest {
  /** Path and query of the stream on the bench server (see server.ts streamQuery). */
  path: string;
  /** Cancel the body once the first event is parsed (time-to-first-event runs). */
  stopAfterFirst: boolean;
}

export interface ReadResult {
  bytes: number;
  events: number;
  /** The JSON-RPC id of the last message (the call's result), as a check that the whole answer arrived. */
  lastId: number | null;
  /** fetch() called -> first complete event parsed, in ms. */
  firstEventMs: number;
  /** fetch() called -> the reader's first chunk, in ms. */
  firstByteMs: number;
  /** fetch() called -> body done (or cancelled), in ms. */
  totalMs: number;
  /** fetch() called, epoch ms (performance.timeOrigin + now): comparable with the panel page's clock. */
  startEpoch: number;
  /** The last chunk arrived, epoch ms. */
  lastByteEpoch: number;
}

export async function readStream(request: ReadRequest): Promise<ReadResult> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'export', arguments: {} },
  });
  const t0 = performance.now();
  const response = await fetch(request.path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      'mcp-session-id': 'bench-session',
    },
    body,
  });
  if (!response.body) throw new Error(`no body (status ${response.status})`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let events = 0;
  let lastId: number | null = null;
  let firstEventMs = -1;
  let firstByteMs = -1;
  let lastByte = t0;
  // Text of the event being received, in pieces: joining once per event (not once per chunk) keeps a 4 MiB event
  // from being copied on every 64 KiB chunk, as a careful client does.
  let pending: string[] = [];
  let pendingEndsWithNewline = false;
  let stopped = false;
  const dispatch = (block: string): void => {
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('data:')) data += data === '' ? line.slice(5).trimStart() : `\n${line.slice(5).trimStart()}`;
    }
    if (data === '') return;
    const message = JSON.parse(data) as { id?: unknown };
    events++;
    if (typeof message.id === 'number') lastId = message.id;
    if (firstEventMs < 0) firstEventMs = performance.now() - t0;
  };
  while (!stopped) {
    const { done, value } = await reader.read();
    if (done) break;
    lastByte = performance.now();
    if (firstByteMs < 0) firstByteMs = lastByte - t0;
    bytes += value.byteLength;
    const text = decoder.decode(value, { stream: true });
    let from = 0;
    if (pendingEndsWithNewline && text.startsWith('\n')) {
      dispatch(pending.join(''));
      pending = [];
      from = 1;
    }
    for (;;) {
      const end = text.indexOf('\n\n', from);
      if (end < 0) break;
      pending.push(text.slice(from, end));
      dispatch(pending.join(''));
      pending = [];
      from = end + 2;
    }
    if (from < text.length) pending.push(text.slice(from));
    pendingEndsWithNewline = from < text.length && text.endsWith('\n');
    if (request.stopAfterFirst && events > 0) {
      stopped = true;
      await reader.cancel();
    }
  }
  return {
    bytes,
    events,
    lastId,
    firstEventMs,
    firstByteMs,
    totalMs: performance.now() - t0,
    startEpoch: performance.timeOrigin + t0,
    lastByteEpoch: performance.timeOrigin + lastByte,
  };
}

export interface PostsResult {
  posts: number;
  totalMs: number;
}

/** `count` JSON-RPC POSTs one after the other, each answer read as JSON and checked against its request id. */
export async function postMany(count: number): Promise<PostsResult> {
  const t0 = performance.now();
  for (let id = 1; id <= count; id++) {
    const response = await fetch('/rpc', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'mcp-session-id': 'bench-session',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ping', arguments: { id } } }),
    });
    const answer = (await response.json()) as { id?: unknown };
    if (answer.id !== id) throw new Error(`POST ${id} got the answer for ${String(answer.id)}`);
  }
  return { posts: count, totalMs: performance.now() - t0 };
}

/** Resolves `ms` after the page's load event ended (at once if that is past): "the first stream 200 ms after load". */
export async function waitAfterLoad(ms: number): Promise<number> {
  const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  const loaded = entry && entry.loadEventEnd > 0 ? entry.loadEventEnd : performance.now();
  const wait = loaded + ms - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  return performance.now() - loaded;
}
