// Panel (pure): MCP-looking requests that DevTools' network log saw and the tap did not record. The tap runs in the
// page's frames only: a dedicated or shared worker's fetch never passes through it. DevTools' own log does see a
// dedicated worker's requests (Chromium and Firefox); the panel cannot record them with chunk timing, so it says how
// many there were instead of staying silent.

/** One finished request of `devtools.network`, as much of its HAR entry as the tally needs. */
export interface NetworkEntry {
  method: string;
  url: string;
}

const MCP_HEADERS = new Set(['mcp-session-id', 'mcp-protocol-version']);

const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/**
 * The request of a HAR entry, when it looks like MCP over HTTP: an MCP header, a JSON-RPC body, or an event-stream
 * answer (what the tap would have recorded). Anything else, or a malformed entry: null.
 */
export function mcpEntry(har: unknown): NetworkEntry | null {
  const request = field(har, 'request');
  const method = field(request, 'method');
  const url = field(request, 'url');
  if (typeof method !== 'string' || typeof url !== 'string') return null;
  const headers = field(request, 'headers');
  const named = Array.isArray(headers)
    ? headers.some((h) => {
        const name = field(h, 'name');
        return typeof name === 'string' && MCP_HEADERS.has(name.toLowerCase());
      })
    : false;
  const body = field(field(request, 'postData'), 'text');
  const jsonRpc = typeof body === 'string' && /"jsonrpc"\s*:\s*"2\.0"/.test(body);
  const mime = field(field(field(har, 'response'), 'content'), 'mimeType');
  const stream = typeof mime === 'string' && mime.toLowerCase().startsWith('text/event-stream');
  return named || jsonRpc || stream ? { method, url } : null;
}

/** Method, origin and path: the tap masks credentials in URLs, so query and userinfo may differ from the log's. */
export function requestKey(method: string, url: string): string {
  try {
    const u = new URL(url);
    return `${method.toUpperCase()} ${u.origin}${u.pathname}`;
  } catch {
    return `${method.toUpperCase()} ${url}`;
  }
}

export class UnrecordedTally {
  /** Per request key, the connections the tap recorded (ids, so a snapshot sent again counts once). */
  private readonly recorded = new Map<string, Set<string>>();
  /** Per request key, how many MCP-looking requests the network log finished. */
  private readonly logged = new Map<string, number>();

  recordedStart(id: string, method: string, url: string): void {
    const key = requestKey(method, url);
    const ids = this.recorded.get(key) ?? new Set<string>();
    ids.add(id);
    this.recorded.set(key, ids);
  }

  networkEntry(entry: NetworkEntry): void {
    const key = requestKey(entry.method, entry.url);
    this.logged.set(key, (this.logged.get(key) ?? 0) + 1);
  }

  /** Requests the log finished beyond what the tap recorded under the same method, origin and path. */
  get count(): number {
    let n = 0;
    for (const [key, logged] of this.logged) n += Math.max(0, logged - (this.recorded.get(key)?.size ?? 0));
    return n;
  }

  /** A new page without preserve log, or a clear: both sides start over. */
  reset(): void {
    this.recorded.clear();
    this.logged.clear();
  }
}
