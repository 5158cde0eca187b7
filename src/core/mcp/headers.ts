// Runs anywhere (pure core): case-insensitive header lookup (HTTP names are case-insensitive; captures keep spelling).
import type { HttpHeader } from '../capture/model';

export function headerValue(headers: readonly HttpHeader[] | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const header of headers) {
    if (header.name.toLowerCase() === wanted) return header.value;
  }
  return undefined;
}

/** The media type without parameters, lower-cased ("text/event-stream; charset=utf-8" -> "text/event-stream"). */
export function mediaType(headers: readonly HttpHeader[] | undefined): string | undefined {
  const value = headerValue(headers, 'content-type');
  if (value === undefined) return undefined;
  return value.split(';')[0]?.trim().toLowerCase();
}
