// Node (tests and dev scripts): the committed recordings of real SDK traffic in <repo>/fixtures (npm run fixtures).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/', import.meta.url));

/** The folder of one recorded lab scenario. */
export function fixtureDir(name: string): string {
  return join(FIXTURES_DIR, name);
}

/** A fixture's HAR and its chunks.ndjson companion, as text. */
export function readFixture(name: string): { har: string; ndjson: string } {
  const dir = fixtureDir(name);
  return {
    har: readFileSync(join(dir, 'capture.har'), 'utf8'),
    ndjson: readFileSync(join(dir, 'chunks.ndjson'), 'utf8'),
  };
}

/** One HAR entry of a fixture, read with plain JSON.parse (not the importer under test). */
export interface FixtureEntry {
  /** The connection id the importer gives it: e1, e2, ... */
  id: string;
  method: string;
  url: string;
  /** Lower-cased names. */
  requestHeaders: Record<string, string>;
  /** The JSON-RPC method of a POST, 'response' for a client's answer. */
  rpcMethod?: string;
  status: number;
  responseHeaders: Record<string, string>;
  body: string;
  streamState: string;
}

interface RawEntry {
  request: { method: string; url: string; headers: { name: string; value: string }[]; postData?: { text: string } };
  response: { status: number; headers: { name: string; value: string }[]; content: { text?: string } };
  _streamState: string;
}

const headerMap = (list: { name: string; value: string }[]): Record<string, string> =>
  Object.fromEntries(list.map((h) => [h.name.toLowerCase(), h.value]));

export function fixtureEntries(name: string): FixtureEntry[] {
  const har = JSON.parse(readFixture(name).har) as { log: { entries: RawEntry[] } };
  return har.log.entries.map((e, i) => {
    const text = e.request.postData?.text;
    const rpc = text ? (JSON.parse(text) as { method?: string }) : undefined;
    const entry: FixtureEntry = {
      id: `e${i + 1}`,
      method: e.request.method,
      url: e.request.url,
      requestHeaders: headerMap(e.request.headers),
      status: e.response.status,
      responseHeaders: headerMap(e.response.headers),
      body: e.response.content.text ?? '',
      streamState: e._streamState,
    };
    if (rpc) entry.rpcMethod = rpc.method ?? 'response';
    return entry;
  });
}

/** The session id the server gave in its initialize answer. */
export function fixtureSessionId(name: string): string | undefined {
  return fixtureEntries(name).find((e) => e.rpcMethod === 'initialize')?.responseHeaders['mcp-session-id'];
}
