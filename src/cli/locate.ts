// Runs in Node (CLI), pure: where each finding shows in the input file, for the CI formats (SARIF, GitHub).
// Worked out right after the analysis from what reading the file noted (a raw stream's head, where JSON entries open).
import type { Capture } from '../core/capture/model';
import type { Finding } from '../core/guard/types';

/**
 * A finding's place in its input file: the whole file (no connection named); a byte of a raw event stream
 * (offset in the file, head included, and its 1-based line); or an element of the file's list of exchanges
 * (`log.entries` of a HAR, `connections` of a capture file) by its 0-based index.
 */
export type Place =
  | { kind: 'file' }
  | { kind: 'byte'; byteOffset: number; line: number }
  | { kind: 'entry'; list: 'log.entries' | 'connections'; index: number; connectionId: string; line?: number };

/** What the places of findings are worked out from: a raw stream's saved head, or where a JSON list's elements open. */
export type InputSource =
  { kind: 'raw'; head: Uint8Array } | { kind: 'json'; list: 'log.entries' | 'connections'; lines: number[] };

/** The places of `findings`, in their order; `source` is what reading the input noted for them. */
export function locateFindings(source: InputSource, capture: Capture, findings: readonly Finding[]): Place[] {
  const indexes = new Map(capture.connections.map((c, i) => [c.id, i]));
  const named = (finding: Finding): boolean =>
    finding.connectionId !== undefined && indexes.get(finding.connectionId) !== undefined;
  if (source.kind === 'raw') {
    const offsets = findings.map((f) => (named(f) ? source.head.length + (f.byteOffset ?? 0) : undefined));
    // The body's chunks may read the file again (file-chunks.ts): one pass, one chunk at a time, for all findings.
    const chunks = capture.connections[0]?.chunks ?? [];
    const lines = linesAt(
      (function* () {
        yield source.head;
        for (const chunk of chunks) yield chunk.bytes;
      })(),
      offsets.filter((o): o is number => o !== undefined),
    );
    return offsets.map((byteOffset): Place =>
      byteOffset === undefined ? { kind: 'file' } : { kind: 'byte', byteOffset, line: lines.get(byteOffset) ?? 1 },
    );
  }
  return findings.map((finding): Place => {
    const index = finding.connectionId === undefined ? undefined : indexes.get(finding.connectionId);
    if (index === undefined || finding.connectionId === undefined) return { kind: 'file' };
    const line = source.lines[index];
    const { list } = source;
    return { kind: 'entry', list, index, connectionId: finding.connectionId, ...(line !== undefined && { line }) };
  });
}

/** The 1-based line holding byte `offset` (lines end at LF; a CRLF ends one too). */
export function lineAt(bytes: Uint8Array, offset: number): number {
  return linesAt([bytes], [offset]).get(offset) ?? 1;
}

/** {@link lineAt} over a file in pieces, for each of `offsets` (any order), in one pass. */
function linesAt(pieces: Iterable<Uint8Array>, offsets: readonly number[]): Map<number, number> {
  const sorted = [...new Set(offsets)].sort((a, b) => a - b);
  const lines = new Map<number, number>();
  let next = 0;
  let line = 1;
  let base = 0;
  if (sorted.length === 0) return lines;
  for (const piece of pieces) {
    let at = piece.indexOf(LF);
    for (; next < sorted.length && (sorted[next] as number) < base + piece.length; next++) {
      const offset = sorted[next] as number;
      while (at !== -1 && base + at < offset) {
        line++;
        at = piece.indexOf(LF, at + 1);
      }
      lines.set(offset, line);
    }
    if (next === sorted.length) return lines;
    while (at !== -1) {
      line++;
      at = piece.indexOf(LF, at + 1);
    }
    base += piece.length;
  }
  for (; next < sorted.length; next++) lines.set(sorted[next] as number, line);
  return lines;
}

/**
 * The 1-based line where each element of `log.entries` (HAR) or `connections` (capture file) opens, by one
 * pass over the bytes that tracks strings and nesting only; the file was valid JSON, it has been parsed.
 */
export function elementLines(bytes: Uint8Array): number[] {
  const lines: number[] = [];
  const keys: (string | undefined)[] = []; // keys[d]: the last key read in the open object at depth d (<= 2)
  let line = 1;
  let depth = 0;
  let listDepth = -1;
  let inString = false;
  let stringStart = 0;
  let lastString: [number, number] | undefined;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === LF) line++;
    else if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) {
        inString = false;
        if (depth <= 2) lastString = [stringStart, i];
      }
    } else if (c === QUOTE) {
      inString = true;
      stringStart = i + 1;
    } else if (c === COLON && depth <= 2 && lastString) {
      keys[depth] = new TextDecoder().decode(bytes.subarray(lastString[0], lastString[1]));
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (depth === listDepth && c === OPEN_BRACE) lines.push(line);
      depth++;
      const har = depth === 3 && keys[1] === 'log' && keys[2] === 'entries';
      if (c === OPEN_BRACKET && listDepth < 0 && (har || (depth === 2 && keys[1] === 'connections'))) listDepth = depth;
      if (depth <= 2) keys[depth] = undefined;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === listDepth) return lines;
      depth--;
    }
  }
  return lines;
}

const LF = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** How a place reads in a message: `HAR entry 4, connection e4`, `byte 501, line 12`; empty for the file. */
export function describePlace(place: Place): string {
  switch (place.kind) {
    case 'file':
      return '';
    case 'byte':
      return `byte ${place.byteOffset}, line ${place.line}`;
    case 'entry': {
      const what = place.list === 'log.entries' ? 'HAR entry' : 'capture connection';
      const line = place.line === undefined ? '' : `, line ${place.line}`;
      return `${what} ${place.index + 1}, connection ${place.connectionId}${line}`;
    }
  }
}
