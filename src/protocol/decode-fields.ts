// Runs anywhere (pure): the field checks every decoder of src/protocol is built from. A decoder rebuilds a message
// from checked fields only, into fresh objects, so nothing unchecked (extra properties, getters) travels further.
import type { HttpHeader } from './records';

export const LIMITS = {
  deltas: 20_000,
  idChars: 128,
  urlChars: 64 * 1024,
  headers: 256,
  headerNameChars: 256,
  headerValueChars: 16 * 1024,
  bodyChars: 1024 * 1024,
  textChars: 4 * 1024,
  chunkBytes: 64 * 1024 * 1024,
} as const;

class Invalid extends Error {}

export function fail(what: string): never {
  throw new Invalid(what);
}

/** Runs a decoder: its value, or null when any field was off. */
export function decoding<T>(decode: () => T): T | null {
  try {
    return decode();
  } catch (error) {
    if (error instanceof Invalid) return null;
    throw error;
  }
}

export function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(what);
  return value as Record<string, unknown>;
}

export function list(value: unknown, max: number, what: string): readonly unknown[] {
  if (!Array.isArray(value) || value.length > max) fail(what);
  return value;
}

export function text(value: unknown, max: number, what: string): string {
  if (typeof value !== 'string' || value.length > max) fail(what);
  return value;
}

export function optionalText(value: unknown, max: number, what: string): string | undefined {
  return value === undefined ? undefined : text(value, max, what);
}

export function flag(value: unknown, what: string): boolean {
  if (typeof value !== 'boolean') fail(what);
  return value;
}

export function integer(value: unknown, min: number, max: number, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(what);
  return value;
}

/** Epoch milliseconds within a sane range (1970 .. 5138). */
export function time(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1e14) fail(what);
  return value;
}

export function headers(value: unknown): HttpHeader[] {
  return list(value, LIMITS.headers, 'headers').map((h) => {
    const o = record(h, 'header');
    return {
      name: text(o.name, LIMITS.headerNameChars, 'header name'),
      value: text(o.value, LIMITS.headerValueChars, 'header value'),
    };
  });
}

const toTag = Object.prototype.toString;

/**
 * A non-empty Uint8Array. One from another realm (a Firefox content script reads the page's objects through Xray
 * wrappers) is copied into this realm, so `instanceof` and every typed-array method work on what we keep.
 */
export function bytes(value: unknown, max: number, what: string): Uint8Array {
  if (value instanceof Uint8Array) {
    if (value.byteLength === 0 || value.byteLength > max) fail(what);
    return value;
  }
  if (!ArrayBuffer.isView(value) || toTag.call(value) !== '[object Uint8Array]') fail(what);
  const copy = new Uint8Array(value as Uint8Array);
  if (copy.byteLength === 0 || copy.byteLength > max) fail(what);
  return copy;
}
