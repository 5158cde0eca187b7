// Runs anywhere (pure core): capture format v1, the versioned JSON file of raw transport records.
// Findings may be written for convenience; they are never read back (the core recomputes them), so this layer,
// below the guard, takes them as plain objects.
import { decodeBase64, encodeBase64, Base64Error } from './base64';
import { childPath, indexPath, InputError } from './errors';
import {
  CAPTURE_FORMAT,
  CAPTURE_VERSION,
  type BodyChunk,
  type Capture,
  type ConnectionRecord,
  type EndReason,
  type CaptureGap,
  type FaultMark,
  type GapCause,
  type HttpHeader,
  type RecordSource,
} from './model';
import {
  expectObject,
  jsonTypeName,
  optObject,
  optStatus,
  optString,
  optTime,
  reqArray,
  reqEnum,
  reqInteger,
  reqObject,
  reqTime,
  reqString,
  assignDefined,
  type JsonObject,
} from './read';
import { parseJsonFile } from './text';
import { redactCapture, scrubStrings } from './redact/capture';

/** The capture format versions {@link parseCapture} reads. */
export const SUPPORTED_CAPTURE_VERSIONS: readonly number[] = [CAPTURE_VERSION];
export const END_REASONS: readonly EndReason[] = ['complete', 'aborted', 'network-error', 'open'];
export const RECORD_SOURCES: readonly RecordSource[] = ['fetch', 'eventsource', 'har', 'raw'];
export const GAP_CAUSES: readonly GapCause[] = ['evicted', 'unacknowledged', 'panel-budget'];

/**
 * Writes capture format v1 (pretty-printed, keys in a fixed order, body chunks as base64). Secrets are redacted
 * (docs/redaction.md) unless `extras.revealSecrets` is true.
 * @param capture the raw records to write.
 * @param extras.findings findings to write along for convenience (as `analyze` returned them); never read back.
 * @param extras.revealSecrets keep credentials, session ids and body secrets as recorded (the user's opt-in).
 * @returns the JSON text of the capture file.
 * @example writeFileSync('session.capture.json', serializeCapture(capture, { findings: analyze(capture).findings }));
 */
export function serializeCapture(
  capture: Capture,
  extras?: { findings?: readonly object[]; revealSecrets?: boolean },
): string {
  const redaction = extras?.revealSecrets === true ? undefined : redactCapture(capture);
  const written = redaction?.capture ?? capture;
  const findings = redaction && extras?.findings ? scrubStrings(extras.findings, redaction.scrub) : extras?.findings;
  const doc: JsonObject = {
    format: CAPTURE_FORMAT,
    version: CAPTURE_VERSION,
    tool: { name: written.tool.name, version: written.tool.version },
    createdAt: written.createdAt,
    observedUntil: written.observedUntil,
    page: written.page && { url: written.page.url, title: written.page.title },
    connections: written.connections.map(connectionToJson),
    findings,
  };
  return JSON.stringify(doc, null, 2);
}

function connectionToJson(c: ConnectionRecord): JsonObject {
  return {
    id: c.id,
    source: c.source,
    method: c.method,
    url: c.url,
    requestHeaders: c.requestHeaders.map((h) => ({ name: h.name, value: h.value })),
    requestBody: c.requestBody,
    startTime: c.startTime,
    status: c.status,
    statusText: c.statusText,
    responseHeaders: c.responseHeaders?.map((h) => ({ name: h.name, value: h.value })),
    responseTime: c.responseTime,
    chunks: c.chunks.map((chunk) => ({ t: chunk.t, b64: encodeBase64(chunk.bytes) })),
    endTime: c.endTime,
    end: c.end,
    error: c.error,
    documentUrl: c.documentUrl,
    bodyMissing: c.bodyMissing,
    chunkTimesUnknown: c.chunkTimesUnknown,
    faults: c.faults?.map((f) => ({
      t: f.t,
      arm: f.arm,
      fault: f.fault,
      action: f.action,
      offset: f.offset,
      note: f.note,
    })),
    gaps: c.gaps?.map((g) => ({ offset: g.offset, bytes: g.bytes, t: g.t, cause: g.cause })),
  };
}

/**
 * Reads capture format v1 text; every problem is an InputError with the JSON path concerned.
 * @param text the capture file's text (a leading BOM is allowed).
 * @returns the capture; findings written into the file are ignored (analysis recomputes them).
 * @throws InputError when the text is not a capture this version reads.
 */
export function parseCapture(text: string): Capture {
  return captureFromJson(parseJsonFile(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text));
}

/** Reads an already parsed capture document (used by loadInput, which parses once to sniff). */
export function captureFromJson(value: unknown): Capture {
  const doc = expectObject(value, '');
  checkCaptureHeader(doc);
  reqObject(doc, 'tool', '');
  optObject(doc, 'page', '');
  const reader = new CaptureConnectionReader();
  for (const connection of reqArray(doc, 'connections', '')) reader.connection(connection);
  return reader.finish(doc);
}

/** The `format` and `version` fields: this is a capture file, of a version this build reads. */
export function checkCaptureHeader(doc: JsonObject): void {
  const format = doc.format;
  if (format !== CAPTURE_FORMAT) {
    const expected = `expected ${JSON.stringify(CAPTURE_FORMAT)}`;
    const problem =
      format === undefined
        ? 'missing'
        : `unknown format ${typeof format === 'string' ? JSON.stringify(format) : `(${jsonTypeName(format)})`}`;
    throw new InputError('format', `${problem}; ${expected}`);
  }
  const version = doc.version;
  if (typeof version !== 'number' || !SUPPORTED_CAPTURE_VERSIONS.includes(version)) {
    // A version written as text ("1") is the number it spells, wrongly typed: say that and how to write it, not
    // "this build reads version 1" (which reads as if 1 were not what the file says).
    if (typeof version === 'string' && SUPPORTED_CAPTURE_VERSIONS.includes(Number(version))) {
      throw new InputError(
        'version',
        `capture version is the string ${JSON.stringify(version)}, not the number ${Number(version)}; write it as ${Number(version)}`,
      );
    }
    const seen =
      version === undefined
        ? 'missing'
        : `${typeof version === 'number' ? version : `${JSON.stringify(version)} (${jsonTypeName(version)})`} is not supported`;
    throw new InputError(
      'version',
      `capture version ${seen}; this build reads version ${SUPPORTED_CAPTURE_VERSIONS.join(', ')}`,
    );
  }
}

/**
 * A capture file read connection by connection, in file order (the CLI streams a file of any size through it): each
 * element of `connections` becomes its record as soon as it is given.
 */
export class CaptureConnectionReader {
  private readonly connections: ConnectionRecord[] = [];
  private readonly seen = new Map<string, number>();

  /** @param keep what is kept of each record read (see HarEntryReader); the record itself if absent. */
  constructor(private readonly keep: (record: ConnectionRecord) => ConnectionRecord = (record) => record) {}

  /** The number of connections read. */
  get count(): number {
    return this.connections.length;
  }

  /** Reads the next element of `connections`. */
  connection(value: unknown): void {
    const i = this.connections.length;
    const c = connectionFromJson(value, indexPath('connections', i));
    const first = this.seen.get(c.id);
    if (first !== undefined) {
      throw new InputError(
        childPath(indexPath('connections', i), 'id'),
        `duplicate connection id ${JSON.stringify(c.id)} (also connections[${first}])`,
      );
    }
    this.seen.set(c.id, i);
    this.connections.push(this.keep(c));
  }

  /** The capture, from the connections read and the document's other fields (`connections` itself is not read). */
  finish(doc: JsonObject): Capture {
    checkCaptureHeader(doc);
    const tool = reqObject(doc, 'tool', '');
    const page = optObject(doc, 'page', '');
    const capture: Capture = {
      tool: { name: reqString(tool, 'name', 'tool'), version: reqString(tool, 'version', 'tool') },
      createdAt: reqTime(doc, 'createdAt', ''),
      connections: this.connections,
    };
    const observed = optTime(doc, 'observedUntil', '');
    if (observed !== undefined) capture.observedUntil = observed;
    if (page) {
      const title = optString(page, 'title', 'page');
      capture.page = { url: reqString(page, 'url', 'page'), ...(title !== undefined && { title }) };
    }
    return capture;
  }
}

function connectionFromJson(value: unknown, path: string): ConnectionRecord {
  const o = expectObject(value, path);
  const record: ConnectionRecord = {
    id: reqString(o, 'id', path),
    source: reqEnum(o, 'source', path, RECORD_SOURCES),
    method: reqString(o, 'method', path),
    url: reqString(o, 'url', path),
    requestHeaders: headersFromJson(reqArray(o, 'requestHeaders', path), childPath(path, 'requestHeaders')),
    startTime: reqTime(o, 'startTime', path),
    chunks: reqArray(o, 'chunks', path).map((c, i) => chunkFromJson(c, indexPath(childPath(path, 'chunks'), i))),
    end: reqEnum(o, 'end', path, END_REASONS),
  };
  const responseHeaders = o.responseHeaders === undefined ? undefined : reqArray(o, 'responseHeaders', path);
  const optional: Partial<ConnectionRecord> = {
    requestBody: optString(o, 'requestBody', path),
    status: optStatus(o, 'status', path),
    statusText: optString(o, 'statusText', path),
    responseHeaders: responseHeaders && headersFromJson(responseHeaders, childPath(path, 'responseHeaders')),
    responseTime: optTime(o, 'responseTime', path),
    endTime: optTime(o, 'endTime', path),
    error: optString(o, 'error', path),
    documentUrl: optString(o, 'documentUrl', path),
    bodyMissing: o.bodyMissing === true || undefined,
    chunkTimesUnknown: o.chunkTimesUnknown === true || undefined,
    faults: o.faults === undefined ? undefined : faultsFromJson(reqArray(o, 'faults', path), childPath(path, 'faults')),
    gaps: o.gaps === undefined ? undefined : gapsFromJson(reqArray(o, 'gaps', path), childPath(path, 'gaps')),
  };
  return assignDefined(record, optional);
}

function faultsFromJson(list: unknown[], path: string): FaultMark[] {
  return list.map((f, i) => {
    const at = indexPath(path, i);
    const o = expectObject(f, at);
    return {
      t: reqTime(o, 't', at),
      arm: reqString(o, 'arm', at),
      fault: reqString(o, 'fault', at),
      action: reqString(o, 'action', at),
      offset: reqInteger(o, 'offset', at),
      note: reqString(o, 'note', at),
    };
  });
}

function gapsFromJson(list: unknown[], path: string): CaptureGap[] {
  let end = 0;
  return list.map((g, i) => {
    const at = indexPath(path, i);
    const o = expectObject(g, at);
    const gap: CaptureGap = {
      offset: reqInteger(o, 'offset', at),
      bytes: reqInteger(o, 'bytes', at),
      t: reqTime(o, 't', at),
      cause: reqEnum(o, 'cause', at, GAP_CAUSES),
    };
    // In body order and apart: each gap starts where the body (kept or missing) has reached.
    if (gap.offset < end)
      throw new InputError(childPath(at, 'offset'), `gap at ${gap.offset} overlaps the one before (ends at ${end})`);
    if (gap.bytes < 1) throw new InputError(childPath(at, 'bytes'), 'a gap misses at least 1 byte');
    end = gap.offset + gap.bytes;
    return gap;
  });
}

function headersFromJson(list: unknown[], path: string): HttpHeader[] {
  return list.map((h, i) => {
    const at = indexPath(path, i);
    const o = expectObject(h, at);
    return { name: reqString(o, 'name', at), value: reqString(o, 'value', at) };
  });
}

function chunkFromJson(value: unknown, path: string): BodyChunk {
  const o = expectObject(value, path);
  const t = reqTime(o, 't', path);
  const b64 = reqString(o, 'b64', path);
  return { t, bytes: decodeBase64At(b64, childPath(path, 'b64')) };
}

/** Base64 decoding whose failure is an InputError at `path`. */
export function decodeBase64At(text: string, path: string): Uint8Array {
  try {
    return decodeBase64(text);
  } catch (error) {
    if (error instanceof Base64Error) throw new InputError(path, error.message);
    throw error;
  }
}
