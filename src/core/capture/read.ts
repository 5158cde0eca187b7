// Runs anywhere (pure core): typed reads of parsed JSON that fail with an InputError at a precise path.
import { childPath, InputError } from './errors';

export type JsonObject = Record<string, unknown>;

/** "null", "array", or the typeof name: how a value is named in error messages. */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function expectObject(value: unknown, path: string): JsonObject {
  if (isJsonObject(value)) return value;
  throw new InputError(path, `expected an object, got ${jsonTypeName(value)}`);
}

function missing(obj: JsonObject, key: string, path: string, expected: string): never {
  const where = childPath(path, key);
  if (!(key in obj)) throw new InputError(where, `missing (expected ${expected})`);
  throw new InputError(where, `expected ${expected}, got ${jsonTypeName(obj[key])}`);
}

export function reqObject(obj: JsonObject, key: string, path: string): JsonObject {
  const v = obj[key];
  return isJsonObject(v) ? v : missing(obj, key, path, 'an object');
}

export function optObject(obj: JsonObject, key: string, path: string): JsonObject | undefined {
  return obj[key] === undefined ? undefined : reqObject(obj, key, path);
}

export function reqArray(obj: JsonObject, key: string, path: string): unknown[] {
  const v = obj[key];
  return Array.isArray(v) ? v : missing(obj, key, path, 'an array');
}

export function optArray(obj: JsonObject, key: string, path: string): unknown[] | undefined {
  return obj[key] === undefined ? undefined : reqArray(obj, key, path);
}

export function reqString(obj: JsonObject, key: string, path: string): string {
  const v = obj[key];
  return typeof v === 'string' ? v : missing(obj, key, path, 'a string');
}

export function optString(obj: JsonObject, key: string, path: string): string | undefined {
  return obj[key] === undefined ? undefined : reqString(obj, key, path);
}

export function reqNumber(obj: JsonObject, key: string, path: string): number {
  const v = obj[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : missing(obj, key, path, 'a number');
}

export function optNumber(obj: JsonObject, key: string, path: string): number | undefined {
  return obj[key] === undefined ? undefined : reqNumber(obj, key, path);
}

/** The latest moment a JavaScript Date can hold, in epoch ms (ECMA-262: 8.64e15). */
const LATEST_TIME = 8.64e15;

/**
 * An epoch time in ms a Date can hold (0 to 8.64e15): a capture starting at 1e17 was read, and its timeline then spent
 * 43 s and 1.1 GB laying out an axis no clock can show.
 */
export function reqTime(obj: JsonObject, key: string, path: string): number {
  const v = reqNumber(obj, key, path);
  if (v < 0 || v > LATEST_TIME) {
    throw new InputError(childPath(path, key), `${v} is not an epoch time in ms (0 to 8.64e15, the range of a Date)`);
  }
  return v;
}

export function optTime(obj: JsonObject, key: string, path: string): number | undefined {
  return obj[key] === undefined ? undefined : reqTime(obj, key, path);
}

/** An HTTP status code: an integer from 100 to 599 (RFC 9110, section 15). */
export function optStatus(obj: JsonObject, key: string, path: string): number | undefined {
  const v = optInteger(obj, key, path);
  if (v !== undefined && (v < 100 || v > 599)) {
    throw new InputError(childPath(path, key), `${v} is not an HTTP status (100 to 599)`);
  }
  return v;
}

/**
 * A HAR duration in ms (`time`, each of `timings`): 0 or more, or -1 for "does not apply" (HAR 1.2); anything else is
 * refused where it is, as is one longer than a Date can span.
 */
export function optDuration(obj: JsonObject, key: string, path: string): number | undefined {
  const v = optNumber(obj, key, path);
  if (v === undefined || v === -1) return v;
  if (v < 0) throw new InputError(childPath(path, key), `${v} is not a duration in ms (0 or more; -1: does not apply)`);
  if (v > LATEST_TIME)
    throw new InputError(childPath(path, key), `${v} ms is longer than a Date can span (8.64e15 ms)`);
  return v;
}

/** A HAR size in bytes (`bodySize`, `headersSize`, `content.size`): a whole number, 0 or more, or -1 for unknown. */
export function optSize(obj: JsonObject, key: string, path: string): number | undefined {
  const v = optNumber(obj, key, path);
  if (v !== undefined && (v < -1 || !Number.isSafeInteger(v))) {
    throw new InputError(childPath(path, key), `${v} is not a size in bytes (a whole number, 0 or more; -1: unknown)`);
  }
  return v;
}

/** A time that must be a Date's (0 to 8.64e15): the error says what made it (`what`) and where it belongs. */
export function checkTime(v: number, path: string, what: string): number {
  if (v < 0 || v > LATEST_TIME) {
    throw new InputError(path, `${what} is epoch ms ${v}, outside the range of a Date (0 to 8.64e15)`);
  }
  return v;
}

export function reqInteger(obj: JsonObject, key: string, path: string): number {
  const v = obj[key];
  return Number.isInteger(v) ? (v as number) : missing(obj, key, path, 'an integer');
}

export function optInteger(obj: JsonObject, key: string, path: string): number | undefined {
  return obj[key] === undefined ? undefined : reqInteger(obj, key, path);
}

/** A string that must be one of `allowed`; the error lists them. */
export function reqEnum<T extends string>(obj: JsonObject, key: string, path: string, allowed: readonly T[]): T {
  const v = reqString(obj, key, path);
  if ((allowed as readonly string[]).includes(v)) return v as T;
  const list = allowed.map((a) => JSON.stringify(a)).join(', ');
  throw new InputError(childPath(path, key), `${JSON.stringify(v)} is not one of ${list}`);
}

/** Copies the defined values of `extra` onto `base`, so absent optional fields stay absent (not undefined). */
export function assignDefined<T extends object>(base: T, extra: Partial<T>): T {
  for (const key of Object.keys(extra) as (keyof T)[]) {
    const v = extra[key];
    if (v !== undefined) base[key] = v;
  }
  return base;
}
