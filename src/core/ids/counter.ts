// Runs anywhere (pure core): an event id as a prefix and a trailing counter, the way servers number their events.

const ZERO = 48;
const NINE = 57;

/** Where an id's trailing number starts, when it is written canonically (no leading zero, at most 15 digits). */
export function counterStart(id: string): number | undefined {
  let start = id.length;
  while (start > 0 && id.charCodeAt(start - 1) >= ZERO && id.charCodeAt(start - 1) <= NINE) start -= 1;
  const digits = id.length - start;
  if (digits === 0 || digits > 15 || (digits > 1 && id.charCodeAt(start) === ZERO)) return undefined;
  return start;
}

/** The number written in id[start..] (digits only, as counterStart found them). */
export function counterFrom(id: string, start: number): number {
  let n = 0;
  for (let i = start; i < id.length; i++) n = n * 10 + id.charCodeAt(i) - ZERO;
  return n;
}
