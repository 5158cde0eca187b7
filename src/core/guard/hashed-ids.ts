// Runs anywhere (pure core): id -> first event index for ids that are not counters, without keeping the ids.

/**
 * An open-addressing table of (32-bit hash of the id, event index) pairs in one Int32Array. The ids themselves are
 * not kept (a Map keyed by 100k SDK-style ids costs ~130 bytes each, more than their events): an entry whose hash
 * matches is confirmed by reading the id of its event again (`idOf`), so collisions cost a lookup, never a wrong
 * answer.
 */
export class HashedIds {
  /** slots[2k] = hash, slots[2k + 1] = event index + 1 (0: empty). */
  private slots = new Int32Array(64);
  private size = 0;

  constructor(private readonly idOf: (index: number) => string) {}

  /** The index recorded for `id`; when there is none yet, `index` is recorded (and undefined returned). */
  firstOr(id: string, index: number): number | undefined {
    const hash = hashOf(id);
    const found = this.find(id, hash);
    if (found >= 0) return found;
    if ((this.size + 1) * 2 > this.slots.length / 2) this.grow();
    this.put(hash, index);
    return undefined;
  }

  get(id: string): number | undefined {
    const found = this.find(id, hashOf(id));
    return found >= 0 ? found : undefined;
  }

  private find(id: string, hash: number): number {
    const mask = this.slots.length / 2 - 1;
    for (let k = hash & mask; ; k = (k + 1) & mask) {
      const stored = this.slots[2 * k + 1] as number;
      if (stored === 0) return -1;
      if (this.slots[2 * k] === hash && this.idOf(stored - 1) === id) return stored - 1;
    }
  }

  private put(hash: number, index: number): void {
    const mask = this.slots.length / 2 - 1;
    let k = hash & mask;
    while (this.slots[2 * k + 1] !== 0) k = (k + 1) & mask;
    this.slots[2 * k] = hash;
    this.slots[2 * k + 1] = index + 1;
    this.size++;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.size = 0;
    for (let k = 0; k < old.length; k += 2)
      if (old[k + 1] !== 0) this.put(old[k] as number, (old[k + 1] as number) - 1);
  }
}

/** FNV-1a over the UTF-16 code units. */
function hashOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash | 0;
}
