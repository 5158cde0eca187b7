// Runs anywhere (pure core): case-insensitive header lookup (HTTP names are case-insensitive; captures keep spelling),
// and how 2026-07-28 mirrors body fields into MCP request headers.
import { decodeBase64 } from '../capture/base64';
import { headerValue } from '../capture/headers';
import type { HttpHeader } from '../capture/model';
import { TextDecoder } from '../web/globals';
export { headerValue };

/** The media type without parameters, lower-cased ("text/event-stream; charset=utf-8" -> "text/event-stream"). */
export function mediaType(headers: readonly HttpHeader[] | undefined): string | undefined {
  const value = headerValue(headers, 'content-type');
  if (value === undefined) return undefined;
  return value.split(';')[0]?.trim().toLowerCase();
}

/** The 2026-07-28 sentinel for a header value that is not plain ASCII: `=?base64?<base64 of the UTF-8>?=`. */
const SENTINEL = /^=\?base64\?(.*)\?=$/s;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * What a mirrored header value (`Mcp-Name`, `Mcp-Param-*`) stands for: the value itself, or the decoded text of
 * the Base64 sentinel (the markers are case-sensitive, as the spec says). `ok: false` when a sentinel's base64 or
 * UTF-8 is malformed.
 */
export function decodeMirroredValue(value: string): { ok: true; text: string; encoded: boolean } | { ok: false } {
  const sentinel = SENTINEL.exec(value);
  if (!sentinel) return { ok: true, text: value, encoded: false };
  try {
    return { ok: true, text: UTF8.decode(decodeBase64(sentinel[1] ?? '')), encoded: true };
  } catch {
    return { ok: false }; // malformed base64 or UTF-8: the header names nothing
  }
}

/** True when a value must travel as the Base64 sentinel: not visible ASCII and inner spaces, or sentinel-shaped. */
export function needsSentinel(text: string): boolean {
  return !/^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/.test(text) || SENTINEL.test(text);
}
