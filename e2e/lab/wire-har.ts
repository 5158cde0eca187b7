// Runs in Node (fixture recorder): writes the proxy's wire recording as HAR 1.2 (bodies exactly as delivered,
// `_streamState` for how each ended) and its chunks.ndjson companion (per-chunk times and byte offsets).
// Independent of src/core on purpose: the fixtures test the product's importer, so they must not come from it.
import type { WireExchange } from './proxy/wire-recorder';

export const HAR_CREATOR = {
  name: 'mcp-stream-inspector-lab',
  version: '0.1.0',
  comment:
    'recorded by the lab proxy (npm run fixtures): response.content.text holds exactly the body bytes the proxy delivered for that request, also for cut or still-open streams',
};

export interface WireRecording {
  /** Wall-clock ms (epoch) of the recording's time 0; exchange times are ms after it. */
  startedAt: number;
  /** The page that made the requests. */
  pageUrl: string;
  exchanges: readonly WireExchange[];
  /** Ms after time 0 until which the recording watched (open exchanges were still open then), when it says. */
  observedUntil?: number;
}

const ms = (value: number): number => Math.round(value * 1000) / 1000;
const iso = (recording: WireRecording, at: number): string => new Date(recording.startedAt + at).toISOString();

function header(list: readonly [string, string][] | undefined, name: string): string | undefined {
  return list?.find(([n]) => n.toLowerCase() === name)?.[1];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as HAR content text: UTF-8 when it is, base64 otherwise (a cut can split a character). */
function content(exchange: WireExchange): { size: number; mimeType: string; text: string; encoding?: string } {
  const bytes = Buffer.concat(exchange.body);
  const mimeType = header(exchange.responseHeaders, 'content-type') ?? '';
  try {
    return { size: bytes.length, mimeType, text: utf8.decode(bytes) };
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return { size: bytes.length, mimeType, text: bytes.toString('base64'), encoding: 'base64' };
  }
}

function harEntry(recording: WireRecording, e: WireExchange): Record<string, unknown> {
  const url = new URL(e.url);
  const responseAt = e.responseAt ?? e.endAt ?? e.startAt;
  const endAt = e.endAt ?? e.chunks.at(-1)?.at ?? responseAt;
  const requestBody = e.requestBody;
  const request: Record<string, unknown> = {
    method: e.method,
    url: e.url,
    httpVersion: e.httpVersion,
    cookies: [],
    headers: e.requestHeaders.map(([name, value]) => ({ name, value })),
    queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
    headersSize: -1,
    bodySize: requestBody?.length ?? 0,
  };
  if (requestBody) {
    request['postData'] = {
      mimeType: header(e.requestHeaders, 'content-type') ?? '',
      text: requestBody.toString('utf8'),
    };
  }
  const response: Record<string, unknown> = {
    status: e.status ?? 0,
    statusText: e.statusText ?? '',
    httpVersion: e.httpVersion,
    cookies: [],
    headers: (e.responseHeaders ?? []).map(([name, value]) => ({ name, value })),
    content: content(e),
    redirectURL: '',
    headersSize: -1,
    bodySize: e.bytes,
  };
  if (e.error !== undefined) response['_error'] = e.error;
  return {
    pageref: 'page_1',
    startedDateTime: iso(recording, e.startAt),
    time: ms(endAt - e.startAt),
    request,
    response,
    cache: {},
    timings: {
      blocked: -1,
      dns: -1,
      connect: -1,
      ssl: -1,
      send: 0,
      wait: ms(responseAt - e.startAt),
      receive: ms(endAt - responseAt),
    },
    serverIPAddress: '127.0.0.1',
    connection: String(e.conn),
    _seq: e.seq,
    _streamState: e.end,
  };
}

export function toHar(recording: WireRecording): string {
  const entries = [...recording.exchanges].sort((a, b) => a.seq - b.seq);
  const first = entries[0]?.startAt ?? 0;
  const har = {
    log: {
      version: '1.2',
      creator: HAR_CREATOR,
      pages: [{ startedDateTime: iso(recording, first), id: 'page_1', title: recording.pageUrl, pageTimings: {} }],
      entries: entries.map((e) => harEntry(recording, e)),
      ...(recording.observedUntil !== undefined && { _observedUntil: recording.startedAt + recording.observedUntil }),
    },
  };
  return `${JSON.stringify(har, null, 2)}\n`;
}

interface TimedLine {
  at: number;
  /** Keeps a request before its head, chunks and end when they share a time. */
  rank: number;
  entry: number;
  line: Record<string, unknown>;
}

/** One JSON record a line, in the order things happened; `entry` is the 1-based HAR entry. */
export function toChunksNdjson(recording: WireRecording): string {
  const entries = [...recording.exchanges].sort((a, b) => a.seq - b.seq);
  const lines: TimedLine[] = [];
  entries.forEach((e, index) => {
    const entry = index + 1;
    const base = (at: number, type: string): Record<string, unknown> => ({
      t: iso(recording, at),
      tMs: ms(at),
      type,
      entry,
      conn: e.conn,
    });
    lines.push({
      at: e.startAt,
      rank: 0,
      entry,
      line: {
        ...base(e.startAt, 'request'),
        method: e.method,
        sessionId: header(e.requestHeaders, 'mcp-session-id') ?? null,
        lastEventId: header(e.requestHeaders, 'last-event-id') ?? null,
        bodyBytes: e.requestBody?.length ?? 0,
      },
    });
    if (e.responseAt !== undefined)
      lines.push({
        at: e.responseAt,
        rank: 1,
        entry,
        line: { ...base(e.responseAt, 'response-headers'), status: e.status ?? 0 },
      });
    e.chunks.forEach((c, k) =>
      lines.push({
        at: c.at,
        rank: 2 + k,
        entry,
        line: { ...base(c.at, 'chunk'), offset: c.offset, length: c.length },
      }),
    );
    if (e.end !== 'open' && e.endAt !== undefined) {
      lines.push({
        at: e.endAt,
        rank: 3 + e.chunks.length,
        entry,
        line: { ...base(e.endAt, 'end'), reason: e.end, bytes: e.bytes },
      });
    }
  });
  lines.sort((a, b) => a.at - b.at || a.entry - b.entry || a.rank - b.rank);
  return lines.map((l) => `${JSON.stringify(l.line)}\n`).join('');
}
