// Runs anywhere (pure core): case-insensitive header lookup (HTTP names are case-insensitive; captures keep spelling).
import { headerValue } from '../capture/headers';
import type { HttpHeader } from '../capture/model';

export { headerValue };

/** The media type without parameters, lower-cased ("text/event-stream; charset=utf-8" -> "text/event-stream"). */
export function mediaType(headers: readonly HttpHeader[] | undefined): string | undefined {
  const value = headerValue(headers, 'content-type');
  if (value === undefined) return undefined;
  return value.split(';')[0]?.trim().toLowerCase();
}
