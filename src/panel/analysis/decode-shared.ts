// Runs anywhere (pure): the field checks both decoders of the panel's worker wire are built from (on top of
// src/protocol's), and the few shapes both directions carry (an event's identity, the severity scale).
import type { Severity } from '../../core/guard/types';
import { fail, integer, list, record, text } from '../../protocol/decode-fields';
import type { EventRef, FindingTargetData } from './messages';

export type Fields = Record<string, unknown>;

export const MAX = Number.MAX_SAFE_INTEGER;
const TEXT = 16 * 1024 * 1024;
const LIST = 10_000_000;
const SEVERITY = new Set<unknown>(['error', 'warning', 'info']);
export const END_REASONS = new Set<unknown>(['complete', 'aborted', 'network-error', 'open']);

export const count = (v: unknown, what: string) => integer(v, 0, MAX, what);
export const seq = (v: unknown) => integer(v, 0, MAX, 'seq');
export const str = (v: unknown, what: string) => text(v, TEXT, what);
export const strs = (v: unknown, what: string) => list(v, LIST, what).map((s) => str(s, what));
export const items = <T>(v: unknown, what: string, each: (o: Fields) => T) =>
  list(v, LIST, what).map((o) => each(record(o, what)));

export function num(v: unknown, what: string): number {
  if (typeof v !== 'number' || Number.isNaN(v)) fail(what);
  return v;
}

export function optional<T>(v: unknown, decode: (v: unknown) => T): T | undefined {
  return v === undefined ? undefined : decode(v);
}

/** `{ key: value }` when present, `{}` when not: keeps optional fields absent rather than undefined. */
export function maybe<K extends string, T>(key: K, value: T | undefined): { [P in K]?: T } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: T };
}

export function severity(v: unknown): Severity {
  if (!SEVERITY.has(v)) fail('severity');
  return v as Severity;
}

export function severityRecord<T>(v: unknown, each: (v: unknown) => T): Record<Severity, T> {
  const o = record(v, 'severities');
  return { error: each(o.error), warning: each(o.warning), info: each(o.info) };
}

export function eventRef(v: unknown): EventRef {
  const o = record(v, 'event');
  return { connectionId: str(o.connectionId, 'connectionId'), start: count(o.start, 'start') };
}

/** Where a finding points (the findings list, the detail pane). */
export function target(v: unknown): FindingTargetData {
  const o = record(v, 'target');
  return {
    ...maybe(
      'sessionKey',
      optional(o.sessionKey, (s) => str(s, 'sessionKey')),
    ),
    ...maybe(
      'connectionId',
      optional(o.connectionId, (s) => str(s, 'connectionId')),
    ),
    ...maybe('event', optional(o.event, eventRef)),
    ...maybe(
      'time',
      optional(o.time, (t) => num(t, 'time')),
    ),
  };
}
