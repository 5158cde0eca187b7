// Panel (pure): the filter box. Space-separated words must all match (case-insensitive); "-word" excludes.

export interface TextFilter {
  include: string[];
  exclude: string[];
}

export function parseFilter(text: string): TextFilter {
  const include: string[] = [];
  const exclude: string[] = [];
  for (const raw of text.trim().toLowerCase().split(/\s+/)) {
    if (raw === '' || raw === '-') continue;
    if (raw.startsWith('-')) exclude.push(raw.slice(1));
    else include.push(raw);
  }
  return { include, exclude };
}

export function isEmptyFilter(filter: TextFilter): boolean {
  return filter.include.length === 0 && filter.exclude.length === 0;
}

/**
 * Whether everything `next` lets through passes `previous` too (typing on narrows a filter): each word `previous`
 * requires is inside one `next` requires, and each word `previous` excludes, `next` excludes as well.
 */
export function narrows(previous: TextFilter, next: TextFilter): boolean {
  return (
    previous.include.every((p) => next.include.some((n) => n.includes(p))) &&
    previous.exclude.every((p) => next.exclude.includes(p))
  );
}

/** Whether the haystack (already lower-cased) passes the filter. */
export function matchesFilter(filter: TextFilter, haystackLower: string): boolean {
  for (const word of filter.include) if (!haystackLower.includes(word)) return false;
  for (const word of filter.exclude) if (haystackLower.includes(word)) return false;
  return true;
}
