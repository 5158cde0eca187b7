// Runs anywhere (pure core): a JSON file cut short, in words that say where: which HAR entry or capture connection
// it ends inside, and at which byte. The engines' own words ("Unexpected end of JSON input") say neither.

/** The list of a HAR or capture file, and the element of it that the file ends inside or after. */
export interface CutPlace {
  list: 'log.entries' | 'connections';
  /** Index of the last element begun. */
  index: number;
  /** True when the file ends inside that element, false when after it (between two elements). */
  inside: boolean;
}

/** "the file ends inside log.entries[2] (HAR entry 3) at byte 4218: it was cut short" */
export function cutShortMessage(place: CutPlace | undefined, bytes: number): string {
  const at = `at byte ${bytes}: it was cut short`;
  if (!place || place.index < 0) return `the file ends before its JSON is complete, ${at}`;
  const what = place.list === 'log.entries' ? 'HAR entry' : 'capture connection';
  const where = `${place.list}[${place.index}] (${what} ${place.index + 1})`;
  return place.inside ? `the file ends inside ${where} ${at}` : `the file ends after ${where} ${at}`;
}

interface Frame {
  array: boolean;
  /** Objects: the key last read. */
  key: string | undefined;
  /** Arrays: elements begun. */
  count: number;
  /** Objects: a key comes next; arrays: an element (or the close) comes next. */
  awaiting: boolean;
}

/** Where a JSON text that ends early ends, when it is a HAR's `log.entries` or a capture's `connections`. */
export function cutPlace(text: string): CutPlace | undefined {
  const stack: Frame[] = [];
  let i = 0;
  const n = text.length;
  // A value starts in the top frame: an array counts the element.
  const valueStarts = () => {
    const top = stack.at(-1);
    if (top?.array && top.awaiting) {
      top.count++;
      top.awaiting = false;
    }
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    const top = stack.at(-1);
    if (c === 0x22) {
      let j = i + 1;
      while (j < n && text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c ? 2 : 1;
      if (top && !top.array && top.awaiting) {
        top.key = j - i < 256 ? text.slice(i + 1, j) : undefined;
        top.awaiting = false;
      } else valueStarts();
      i = j + 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      valueStarts();
      stack.push({ array: c === 0x5b, key: undefined, count: 0, awaiting: true });
    } else if (c === 0x7d || c === 0x5d) stack.pop();
    else if (c === 0x2c && top) top.awaiting = true;
    else if (c !== 0x3a && c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) valueStarts();
    i++;
  }
  const [root, second, third] = stack;
  if (root?.key === 'connections' && second?.array)
    return { list: 'connections', index: second.count - 1, inside: stack.length > 2 };
  if (root?.key === 'log' && second?.key === 'entries' && third?.array)
    return { list: 'log.entries', index: third.count - 1, inside: stack.length > 3 };
  return undefined;
}

/** The UTF-8 length of a text, counted without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
