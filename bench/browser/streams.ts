// Node (benches): the SSE bodies the browser benches read, made once per shape and kept as one Buffer, so the
// server's cost per request is a socket write and both sides of a comparison get exactly the same bytes.

/** What an MCP server streams in answer to one tools/call: notifications, then the call's result. */
export interface StreamShape {
  /** Number of SSE events, the final result included. */
  events: number;
  /** Target size of each event on the wire (the message text is padded to reach it). */
  eventBytes: number;
}

/** ~300k small progress notifications in 64 MiB: the per-event overhead case. */
export const SMALL_64MB: StreamShape = { events: 300_000, eventBytes: Math.floor((64 * 1024 * 1024) / 300_000) };
/** 16 events of 4 MiB: the per-byte case (tool results carrying big documents). */
export const BIG_64MB: StreamShape = { events: 16, eventBytes: 4 * 1024 * 1024 };

/**
 * The paced stream's rate: well below what the page reads without the extension here (40-70 MB/s on this 2-core
 * machine shared with other sessions; loopback itself gives 40-85 MB/s), so the baseline keeps up with the server
 * and the ratio says whether the extension lets the page keep up too.
 */
export const PACE_MB_S = 20;

const cache = new Map<string, Buffer>();

/** Request id the final result answers: the page posts tools/call with this id. */
export const CALL_ID = 7;

function pad(text: string, length: number): string {
  if (text.length >= length) return text;
  const filler = ' lorem ipsum dolor sit amet, consectetur adipiscing elit';
  return text + filler.repeat(Math.ceil((length - text.length) / filler.length)).slice(0, length - text.length);
}

/** One event of about `size` bytes: `event: message`, an integer id, and a JSON-RPC message as its data. */
function event(n: number, total: number, size: number): string {
  const last = n === total;
  const skeleton = (text: string): string => {
    const message = last
      ? { jsonrpc: '2.0', id: CALL_ID, result: { content: [{ type: 'text', text }] } }
      : {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'call-7', progress: n, total, message: text },
        };
    return `event: message\nid: ${n}\ndata: ${JSON.stringify(message)}\n\n`;
  };
  const base = `step ${n} of ${total}`;
  // The padding is ASCII without JSON escapes, so one character is one byte on the wire: the skeleton's length
  // with `base` tells how much to add.
  const bare = skeleton(base);
  return bare.length >= size ? bare : skeleton(pad(base, base.length + size - bare.length));
}

export function streamBytes(shape: StreamShape): Buffer {
  const key = `${shape.events}x${shape.eventBytes}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const parts: Buffer[] = [];
  for (let n = 1; n <= shape.events; n++) parts.push(Buffer.from(event(n, shape.events, shape.eventBytes)));
  const bytes = Buffer.concat(parts);
  cache.set(key, bytes);
  return bytes;
}

/** Throws unless the page read the whole stream: every byte, every event, and the call's result last. */
export function checkWhole(read: { bytes: number; events: number; lastId: number | null }, shape: StreamShape): void {
  const bytes = streamBytes(shape).length;
  if (read.bytes !== bytes || read.events !== shape.events || read.lastId !== CALL_ID) {
    throw new Error(
      `incomplete read: ${read.bytes}/${bytes} bytes, ${read.events}/${shape.events} events, last id ${String(read.lastId)}`,
    );
  }
}
