// Node (tests): the lab's recordings read as the importer reads them, and the live requests a client that repeats
// the recording would send (optionally with its own JSON-RPC ids).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importHar } from '../capture/har';
import type { Capture, ConnectionRecord } from '../capture/model';
import { pathAndQuery } from '../fault/legacy-sse';
import { fixtureDir } from '../fixtures-dir.fixture';
import type { ReplayAnswer, ReplayRequest } from './planner';

export function fixtureCapture(name: string): Capture {
  const dir = fixtureDir(name);
  return importHar(readFileSync(join(dir, 'capture.har'), 'utf8'), {
    chunksNdjson: readFileSync(join(dir, 'chunks.ndjson'), 'utf8'),
  });
}

/** The request of a recorded connection, as the replay server would read it; `body` replaces its body. */
export function requestOf(record: ConnectionRecord, body?: string): ReplayRequest {
  const text = body ?? record.requestBody;
  return {
    method: record.method,
    path: pathAndQuery(record.url, '/'),
    headers: record.requestHeaders,
    ...(text !== undefined && { body: text }),
  };
}

/** The planned chunks' bytes as text, taken in order. */
export function playedText(answer: ReplayAnswer): string[] {
  if (answer.kind !== 'play') return [answer.body];
  return answer.chunks.map((chunk) => Buffer.from(chunk.take()).toString('utf8'));
}

export function recordedText(record: ConnectionRecord): string[] {
  return record.chunks.map((chunk) => Buffer.from(chunk.bytes).toString('utf8'));
}

/** A recorded connection by what it is: its JSON-RPC method, or `GET` / `resume`. */
export function findRecord(capture: Capture, what: (record: ConnectionRecord) => boolean): ConnectionRecord {
  const record = capture.connections.find(what);
  if (!record) throw new Error('no such connection in the recording');
  return record;
}

export const isCall = (tool: string) => (record: ConnectionRecord) =>
  record.requestBody?.includes('"tools/call"') === true && record.requestBody.includes(`"${tool}"`);
