// Node (benches only): the CLI benches' inputs, written on the fly into a temporary folder (and removed by the
// caller): a raw event stream of progress notifications with a few 1 MB results, and a HAR of such streams.
import { closeSync, openSync, writeSync } from 'node:fs';

const encoder = new TextEncoder();

function progressEvent(n: number): string {
  const params = { progressToken: 'req-7', progress: n, total: 10_000_000, message: `step ${n} of the long task` };
  return `event: message\nid: ${n}\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params })}\n\n`;
}

function resultEvent(n: number, id: number, size: number): string {
  const words = 'lorem ipsum dolor sit amet, consectetur "adipiscing" elit\n sed do eiusmod tempor ';
  const text = words.repeat(Math.ceil(size / words.length)).slice(0, size);
  const message = { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } };
  return `event: message\nid: ${n}\ndata: ${JSON.stringify(message)}\n\n`;
}

/**
 * One stream's text of about `bytes`: progress events, with a 1 MB result (answering `answerId`, else numbered from
 * 1) after every `resultEvery` bytes. Event ids count on from `firstId` (one event store numbers a session's events).
 */
export function* streamText(bytes: number, resultEvery: number, firstId = 1, answerId?: number): Generator<string> {
  let written = 0;
  let sinceResult = 0;
  let n = firstId - 1;
  let id = 0;
  let block = '';
  while (written < bytes) {
    n++;
    let event: string;
    if (sinceResult >= resultEvery) {
      event = resultEvent(n, answerId ?? ++id, 1_000_000);
      sinceResult = 0;
    } else event = progressEvent(n);
    block += event;
    written += event.length;
    sinceResult += event.length;
    if (block.length > 4_000_000) {
      yield block;
      block = '';
    }
  }
  if (block !== '') yield block;
}

/** A raw stream (`curl -N`) of about `bytes`, with `results` 1 MB results spread over it. */
export function writeRawStream(path: string, bytes: number, results: number): void {
  const fd = openSync(path, 'w');
  try {
    for (const block of streamText(bytes, Math.floor(bytes / (results + 1)))) writeSync(fd, encoder.encode(block));
  } finally {
    closeSync(fd);
  }
}

/**
 * A raw stream (`curl -N`) of about `bytes` in cycles of `progress` small progress notifications followed by one
 * result of 1 MiB, repeated (issue 32's mixed shape: most bytes sit in the big events, most events are small).
 */
export function writeMixedStream(path: string, bytes: number, progress = 2000): void {
  const fd = openSync(path, 'w');
  try {
    let written = 0;
    let n = 0;
    let id = 0;
    while (written < bytes) {
      let block = '';
      for (let i = 0; i < progress; i++) block += progressEvent(++n);
      block += resultEvent(++n, ++id, 2 ** 20);
      written += writeSync(fd, encoder.encode(block));
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * A HAR of about `bytes`: an initialize POST, then tools/call POSTs of one session whose SSE answers are each
 * about `perEntry` bytes of progress and a 1 MB result. Written entry by entry, never held whole.
 */
export function writeHar(path: string, bytes: number, perEntry: number): void {
  const fd = openSync(path, 'w');
  const put = (text: string) => writeSync(fd, encoder.encode(text));
  const t0 = Date.parse('2026-12-01T10:00:00.000Z');
  const entry = (i: number, body: string, method: string, sse: boolean) =>
    JSON.stringify({
      startedDateTime: new Date(t0 + i * 1000).toISOString(),
      time: 900,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:3000/mcp',
        httpVersion: 'HTTP/1.1',
        headers: [
          { name: 'content-type', value: 'application/json' },
          { name: 'accept', value: 'application/json, text/event-stream' },
          ...(i > 0
            ? [
                { name: 'mcp-session-id', value: 'bench-session' },
                { name: 'mcp-protocol-version', value: '2025-11-25' },
              ]
            : []),
        ],
        postData: {
          mimeType: 'application/json',
          text: JSON.stringify({ jsonrpc: '2.0', id: i + 1, method, params: {} }),
        },
      },
      response: {
        status: 200,
        statusText: 'OK',
        headers: [
          { name: 'content-type', value: sse ? 'text/event-stream' : 'application/json' },
          { name: 'mcp-session-id', value: 'bench-session' },
        ],
        content: { size: body.length, mimeType: sse ? 'text/event-stream' : 'application/json', text: body },
      },
      timings: { send: 1, wait: 10, receive: 889 },
    });
  try {
    put('{"log":{"version":"1.2","creator":{"name":"bench","version":"1"},"entries":[');
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'bench', version: '1' } },
    });
    put(entry(0, init, 'initialize', false));
    let written = 0;
    let firstId = 1;
    for (let i = 1; written < bytes; i++) {
      // Progress, then the answer to this entry's request last.
      const body = [...streamText(perEntry, perEntry - 1_000_000, firstId, i + 1)].join('');
      firstId += (body.match(/^id: /gm) ?? []).length;
      const text = entry(i, body, 'tools/call', true);
      put(`,${text}`);
      written += text.length;
    }
    put(']}}');
  } finally {
    closeSync(fd);
  }
}
