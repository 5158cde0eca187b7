// Runs anywhere (pure): the detail pane's part of the worker's answers (DetailData, whole payloads), decoded for
// decode-results.ts.
import { fail, flag, list, record } from '../../protocol/decode-fields';
import { END_REASONS, count, eventRef, items, maybe, num, optional, severity, str, target } from './decode-shared';
import type { DetailData, TextSegment } from './messages';

export const segments = (v: unknown): TextSegment[] =>
  items(v, 'segments', (s) => ({ chunk: count(s.chunk, 'chunk'), text: str(s.text, 'text') }));

export const json = (v: unknown): { value: unknown } | undefined =>
  optional(v, (j) => ({ value: record(j, 'json').value }));

const headerList = (v: unknown) =>
  items(v, 'headers', (h) => ({ name: str(h.name, 'header name'), value: str(h.value, 'header value') }));

const ROLES = new Set<unknown>(['post', 'get', 'delete', 'legacy-sse', 'legacy-post', 'other']);
const TABS = new Set<unknown>(['headers', 'payload', 'tail']);

export function detail(v: unknown): DetailData {
  const o = record(v, 'detail');
  const f = optional(o.finding, (x) => {
    const d = record(x, 'finding');
    return {
      key: str(d.key, 'key'),
      rule: str(d.rule, 'rule'),
      severity: severity(d.severity),
      message: str(d.message, 'message'),
      ...maybe(
        'byteOffset',
        optional(d.byteOffset, (b) => count(b, 'byteOffset')),
      ),
      target: target(d.target),
    };
  });
  const e = optional(o.event, (x) => {
    const d = record(x, 'event');
    const p = record(d.payload, 'payload');
    return {
      ref: eventRef(d.ref),
      type: str(d.type, 'type'),
      hasId: flag(d.hasId, 'hasId'),
      lastEventId: str(d.lastEventId, 'lastEventId'),
      streamId: str(d.streamId, 'streamId'),
      time: str(d.time, 'time'),
      ...maybe(
        'retry',
        optional(d.retry, (r) => count(r, 'retry')),
      ),
      ...maybe(
        'problem',
        optional(d.problem, (s) => str(s, 'problem')),
      ),
      empty: flag(d.empty, 'empty'),
      answers: items(d.answers, 'answers', (a) => ({
        text: str(a.text, 'text'),
        connectionId: str(a.connectionId, 'connectionId'),
      })),
      end: count(d.end, 'end'),
      payload: {
        bytes: count(p.bytes, 'bytes'),
        truncated: flag(p.truncated, 'truncated'),
        segments: segments(p.segments),
        ...maybe('json', json(p.json)),
      },
      spans: items(d.spans, 'spans', (s) => ({
        chunk: count(s.chunk, 'chunk'),
        start: count(s.start, 'start'),
        end: count(s.end, 'end'),
        t: num(s.t, 't'),
      })),
      spansLeftOff: count(d.spansLeftOff, 'spansLeftOff'),
      t0: num(d.t0, 't0'),
    };
  });
  const c = optional(o.connection, (x) => {
    const d = record(x, 'connection');
    if (!ROLES.has(d.role)) fail('role');
    if (!END_REASONS.has(d.end)) fail('end');
    const request = optional(d.request, (q) => {
      const r = record(q, 'request');
      return {
        ...maybe('json', json(r.json)),
        text: str(r.text, 'text'),
        truncated: flag(r.truncated, 'truncated'),
        bytes: count(r.bytes, 'bytes'),
      };
    });
    const tail = optional(d.tail, (q) => {
      const t = record(q, 'tail');
      return {
        bytes: count(t.bytes, 'bytes'),
        start: count(t.start, 'start'),
        hasData: flag(t.hasData, 'hasData'),
        ...maybe(
          'id',
          optional(t.id, (s) => str(s, 'id')),
        ),
        text: str(t.text, 'text'),
        truncated: flag(t.truncated, 'truncated'),
      };
    });
    return {
      id: str(d.id, 'id'),
      method: str(d.method, 'method'),
      url: str(d.url, 'url'),
      ...maybe(
        'status',
        optional(d.status, (s) => count(s, 'status')),
      ),
      ...maybe(
        'statusText',
        optional(d.statusText, (s) => str(s, 'statusText')),
      ),
      role: d.role as NonNullable<DetailData['connection']>['role'],
      ...maybe(
        'streamId',
        optional(d.streamId, (s) => str(s, 'streamId')),
      ),
      ...maybe(
        'lastEventIdSent',
        optional(d.lastEventIdSent, (s) => str(s, 'lastEventIdSent')),
      ),
      ...maybe(
        'resumes',
        optional(d.resumes, (s) => str(s, 'resumes')),
      ),
      ...maybe(
        'retryOf',
        optional(d.retryOf, (s) => str(s, 'retryOf')),
      ),
      ...maybe(
        'reissueOf',
        optional(d.reissueOf, (s) => str(s, 'reissueOf')),
      ),
      ...maybe(
        'taskOf',
        optional(d.taskOf, (s) => str(s, 'taskOf')),
      ),
      ...maybe(
        'relayed',
        optional(d.relayed, (s) => str(s, 'relayed')),
      ),
      started: str(d.started, 'started'),
      ...maybe(
        'lasted',
        optional(d.lasted, (s) => str(s, 'lasted')),
      ),
      end: d.end as NonNullable<DetailData['connection']>['end'],
      ...maybe(
        'error',
        optional(d.error, (s) => str(s, 'error')),
      ),
      bytes: count(d.bytes, 'bytes'),
      chunks: count(d.chunks, 'chunks'),
      events: count(d.events, 'events'),
      requestHeaders: headerList(d.requestHeaders),
      ...maybe('responseHeaders', optional(d.responseHeaders, headerList)),
      ...maybe('request', request),
      ...maybe('tail', tail),
      ...maybe(
        'faults',
        optional(d.faults, (v) =>
          items(v, 'faults', (f) => ({
            fault: str(f['fault'], 'fault'),
            action: str(f['action'], 'action'),
            offset: count(f['offset'], 'offset'),
            note: str(f['note'], 'note'),
          })),
        ),
      ),
      tabs: list(d.tabs, 3, 'tabs').map((t) => {
        if (!TABS.has(t)) fail('tab');
        return t as NonNullable<DetailData['connection']>['tabs'][number];
      }),
    };
  });
  return { for: str(o.for, 'for'), ...maybe('finding', f), ...maybe('event', e), ...maybe('connection', c) };
}

/** What the worker answers, or null. */
