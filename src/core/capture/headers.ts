// Runs anywhere (pure core): HTTP header lookups; names compare case-insensitively, as HTTP says.
import type { HttpHeader } from './model';

/** The first value of header `name` (any case spelling), or undefined. */
export function headerValue(headers: readonly HttpHeader[] | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const header of headers) {
    if (header.name.toLowerCase() === wanted) return header.value;
  }
  return undefined;
}
