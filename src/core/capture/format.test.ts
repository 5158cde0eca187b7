import { describe, expect, it } from 'vitest';
import type { Finding } from '../guard/types';
import { InputError } from './errors';
import { parseCapture, serializeCapture } from './format';
import { exportHar, importHar } from './har';
import { sampleCapture } from './samples.fixture';

type Doc = Record<string, unknown> & { connections: Record<string, unknown>[] };

function validDoc(): Doc {
  // Exact round trips keep what was recorded; redaction.test.ts covers the default.
  return JSON.parse(serializeCapture(sampleCapture(), { revealSecrets: true })) as Doc;
}

function inputError(text: string): InputError {
  try {
    parseCapture(text);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected parseCapture to fail');
}

function errorFor(mutate: (doc: Doc) => void): InputError {
  const doc = validDoc();
  mutate(doc);
  return inputError(JSON.stringify(doc));
}

describe('capture format v1', () => {
  it('round-trips every field exactly, including fractional times and binary chunks', () => {
    const capture = sampleCapture();
    expect(parseCapture(serializeCapture(capture, { revealSecrets: true }))).toEqual(capture);
  });

  it('keeps until when the recorder watched (observedUntil), in the capture format and in HAR', () => {
    const capture = { ...sampleCapture(), observedUntil: 1795967699000.5 };
    expect(parseCapture(serializeCapture(capture, { revealSecrets: true })).observedUntil).toBe(1795967699000.5);
    expect(importHar(exportHar(capture, { revealSecrets: true })).observedUntil).toBe(1795967699000.5);
    expect(parseCapture(serializeCapture(sampleCapture(), { revealSecrets: true })).observedUntil).toBeUndefined();
  });

  it("keeps where the Break menu's faults struck, redacted or not, and checks each mark", () => {
    const capture = sampleCapture();
    const mark = { t: 5.5, arm: 'a1', fault: 'cut-mid-event:60', action: 'cut', offset: 82, note: 'cut 82 bytes' };
    capture.connections[0]!.faults = [mark];
    expect(parseCapture(serializeCapture(capture, { revealSecrets: true })).connections[0]?.faults).toEqual([mark]);
    expect(parseCapture(serializeCapture(capture)).connections[0]?.faults).toEqual([mark]);
    const doc = JSON.parse(serializeCapture(capture, { revealSecrets: true })) as Doc;
    (doc.connections[0]!['faults'] as Record<string, unknown>[])[0]!['offset'] = 1.5;
    expect(inputError(JSON.stringify(doc)).path).toBe('connections[0].faults[0].offset');
  });

  it('keeps the capture gaps of a record and refuses overlapping or empty ones', () => {
    const capture = sampleCapture();
    const gaps = [
      { offset: 3, bytes: 4096, t: 5.5, cause: 'evicted' as const },
      { offset: 5000, bytes: 10, t: 6, cause: 'unacknowledged' as const },
    ];
    capture.connections[0]!.gaps = gaps;
    expect(parseCapture(serializeCapture(capture, { revealSecrets: true })).connections[0]?.gaps).toEqual(gaps);
    expect(parseCapture(serializeCapture(capture)).connections[0]?.gaps).toEqual(gaps);
    const edit = (change: (list: Record<string, unknown>[]) => void) => {
      const doc = JSON.parse(serializeCapture(capture, { revealSecrets: true })) as Doc;
      change(doc.connections[0]!['gaps'] as Record<string, unknown>[]);
      return inputError(JSON.stringify(doc));
    };
    expect(edit((l) => (l[1]!['offset'] = 10)).path).toBe('connections[0].gaps[1].offset');
    expect(edit((l) => (l[0]!['bytes'] = 0)).path).toBe('connections[0].gaps[0].bytes');
    expect(edit((l) => (l[0]!['cause'] = 'lost')).path).toBe('connections[0].gaps[0].cause');
  });

  it('writes the documented envelope with base64 chunks', () => {
    const doc = validDoc();
    expect(Object.keys(doc)).toEqual(['format', 'version', 'tool', 'createdAt', 'page', 'connections']);
    expect(doc.format).toBe('mcp-stream-inspector/capture');
    expect(doc.version).toBe(1);
    expect(doc.connections[0]!.chunks).toEqual([
      { t: 1795967688311.6, b64: Buffer.from('id: 1\ndata: \n\n').toString('base64') },
      expect.objectContaining({ t: 1795967688561.333 }),
      expect.objectContaining({ t: 1795967688812.5 }),
    ]);
    expect(doc.connections[2]).not.toHaveProperty('status');
  });

  it('includes findings for convenience but never reads them back', () => {
    const finding: Finding = {
      rule: 'torn-event-reconnect',
      severity: 'error',
      message: 'torn',
      connectionId: 'p1',
      byteOffset: 60,
    };
    const text = serializeCapture(sampleCapture(), { findings: [finding], revealSecrets: true });
    expect(JSON.parse(text).findings).toEqual([finding]);
    const parsed = parseCapture(text);
    expect(parsed).not.toHaveProperty('findings');
    expect(parsed).toEqual(sampleCapture());
  });

  it('accepts a leading BOM and ignores unknown fields', () => {
    const doc = validDoc();
    doc.comment = 'written by a newer tool';
    expect(parseCapture('\ufeff' + JSON.stringify(doc))).toEqual(sampleCapture());
  });
});

describe('capture format errors', () => {
  it('malformed JSON names its position', () => {
    const text = serializeCapture(sampleCapture());
    const error = inputError(text.slice(0, 200));
    expect(error.path).toBe('');
    expect(error.message).toMatch(/^the file ends .* at byte 200: it was cut short$/);
    // Cut inside its third connection, the message names it.
    const third = text.indexOf('"id"', text.indexOf('"id"', text.indexOf('"id"') + 1) + 1);
    expect(inputError(text.slice(0, third + 8)).message).toBe(
      `the file ends inside connections[2] (capture connection 3) at byte ${third + 8}: it was cut short`,
    );
  });

  it.each<[string, (doc: Doc) => void, string, RegExp]>([
    [
      'unknown format',
      (d) => (d.format = 'something/else'),
      'format',
      /unknown format "something\/else"; expected "mcp-stream-inspector\/capture"/,
    ],
    ['missing format', (d) => delete d.format, 'format', /^missing; expected "mcp-stream-inspector\/capture"$/],
    ['non-string format', (d) => (d.format = 3), 'format', /^unknown format \(number\)/],
    [
      'unsupported version',
      (d) => (d.version = 2),
      'version',
      /capture version 2 is not supported; this build reads version 1/,
    ],
    ['missing version', (d) => delete d.version, 'version', /capture version missing; this build reads version 1/],
    [
      'string version',
      (d) => (d.version = '1'),
      'version',
      /^capture version is the string "1", not the number 1; write it as 1$/,
    ],
    ['other string version', (d) => (d.version = 'v2'), 'version', /capture version "v2" \(string\) is not supported/],
    ['missing tool', (d) => delete d.tool, 'tool', /missing \(expected an object\)/],
    ['ill-typed createdAt', (d) => (d.createdAt = '2026-01-01'), 'createdAt', /expected a number, got string/],
    ['page without url', (d) => (d.page = { title: 'x' }), 'page.url', /missing \(expected a string\)/],
    ['connections not an array', (d) => (d.connections = {} as never), 'connections', /expected an array, got object/],
    [
      'connection not an object',
      (d) => (d.connections[1] = 5 as never),
      'connections[1]',
      /expected an object, got number/,
    ],
    ['missing method', (d) => delete d.connections[1]!.method, 'connections[1].method', /missing/],
    [
      'bad source',
      (d) => (d.connections[0]!.source = 'xhr'),
      'connections[0].source',
      /"xhr" is not one of "fetch", "eventsource", "har", "raw"/,
    ],
    [
      'bad end',
      (d) => (d.connections[0]!.end = 'done'),
      'connections[0].end',
      /"done" is not one of "complete", "aborted", "network-error", "open"/,
    ],
    ['fractional status', (d) => (d.connections[0]!.status = 200.5), 'connections[0].status', /expected an integer/],
    [
      'absurd status',
      (d) => (d.connections[0]!.status = 99999),
      'connections[0].status',
      /99999 is not an HTTP status/,
    ],
    [
      'start time past any Date',
      (d) => (d.connections[0]!.startTime = 1e17),
      'connections[0].startTime',
      /100000000000000000 is not an epoch time in ms \(0 to 8\.64e15/,
    ],
    ['negative end time', (d) => (d.connections[0]!.endTime = -5), 'connections[0].endTime', /-5 is not an epoch time/],
    [
      'header value not a string',
      (d) => ((d.connections[1]!.requestHeaders as { value: unknown }[])[1]!.value = 2),
      'connections[1].requestHeaders[1].value',
      /expected a string, got number/,
    ],
    [
      'null responseHeaders',
      (d) => (d.connections[0]!.responseHeaders = null),
      'connections[0].responseHeaders',
      /expected an array, got null/,
    ],
    [
      'chunk without t',
      (d) => delete (d.connections[0]!.chunks as Record<string, unknown>[])[2]!.t,
      'connections[0].chunks[2].t',
      /missing \(expected a number\)/,
    ],
    [
      'invalid base64',
      (d) => ((d.connections[0]!.chunks as Record<string, unknown>[])[2]!.b64 = 'aWQ6!IDM='),
      'connections[0].chunks[2].b64',
      /invalid base64 at character 4: unexpected character "!"/,
    ],
    [
      'duplicate connection id',
      (d) => (d.connections[2]!.id = 'p1'),
      'connections[2].id',
      /duplicate connection id "p1" \(also connections\[0\]\)/,
    ],
  ])('%s', (_name, mutate, path, message) => {
    const error = errorFor(mutate);
    expect(error.path).toBe(path);
    expect(error.message.startsWith(`${path}: `)).toBe(true);
    expect(error.detail).toMatch(message);
  });

  it('a top-level array is not a capture', () => {
    expect(inputError('[]').detail).toBe('expected an object, got array');
  });
});
