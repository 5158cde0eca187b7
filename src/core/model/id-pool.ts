// Runs anywhere (pure core): event ids that are not a counter (the MCP SDK's `<stream>_<ms>_<random>`), kept as bytes.

/**
 * The characters of ids, one byte each (ids are Latin-1 in practice; others stay strings). 100k SDK-style ids as
 * strings cost ~90 bytes each (header, characters, the slot pointing at it); here they cost their length.
 * Appended only: a snapshot is a view of the bytes so far, and rows point into it by offset and length.
 */
export class IdPool {
  private bytes = new Uint8Array(256);
  private length = 0;

  /** Appends the characters of `id` (every char code < 256); returns where they start. */
  append(id: string): number {
    if (this.length + id.length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.length + id.length, this.bytes.length + (this.bytes.length >> 1)));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    const at = this.length;
    for (let i = 0; i < id.length; i++) this.bytes[at + i] = id.charCodeAt(i);
    this.length += id.length;
    return at;
  }

  /** The bytes appended so far (a view: later appends stay out of it). */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }

  /** Keeps exactly the bytes there are. */
  seal(): void {
    if (this.bytes.length !== this.length) this.bytes = this.bytes.slice(0, this.length);
  }
}

/** Whether every char code of `id` fits in a byte. */
export function isLatin1(id: string): boolean {
  for (let i = 0; i < id.length; i++) if (id.charCodeAt(i) > 255) return false;
  return true;
}

/** The id at [at, at + length) of a pool's bytes. */
export function idAt(bytes: Uint8Array, at: number, length: number): string {
  let out = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let from = at; from < at + length; from += 4096)
    out += String.fromCharCode.apply(
      null,
      bytes.subarray(from, Math.min(at + length, from + 4096)) as unknown as number[],
    );
  return out;
}

/** Whether the id at [at, at + length) of a pool's bytes is `id`, without making a string. */
export function idEquals(bytes: Uint8Array, at: number, length: number, id: string): boolean {
  if (length !== id.length) return false;
  for (let i = 0; i < length; i++) if (bytes[at + i] !== id.charCodeAt(i)) return false;
  return true;
}
