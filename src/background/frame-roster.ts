// Worker (no browser APIs here; index.ts injects the storage): which frames of a tab have a bridge, learnt from the
// bridges' hellos. Kept in session storage too, so a restarted worker still knows the frames to collect from (the
// bridges say hello once, at document_start). Replaces webNavigation.getAllFrames.

/** The few calls of `storage.session` the roster uses. */
export interface RosterStorage {
  getAll(): Promise<Record<string, unknown>>;
  set(items: Record<string, string>): Promise<void>;
  remove(keys: string[]): Promise<void>;
}

export interface RosterFrame {
  frameId: number;
  url: string;
}

const PREFIX = 'frame.';
const keyOf = (tabId: number, frameId: number): string => `${PREFIX}${tabId}.${frameId}`;

/** `frame.<tab>.<frame>` -> the frame's numbers, or null for another key. */
function parseKey(key: string): { tabId: number; frameId: number } | null {
  const m = /^frame\.(\d+)\.(\d+)$/.exec(key);
  return m ? { tabId: Number(m[1]), frameId: Number(m[2]) } : null;
}

export class FrameRoster {
  /** What this worker learnt itself (a hello not yet written must already count for a panel attaching now). */
  private readonly known = new Map<number, Map<number, string>>();

  constructor(private readonly storage: RosterStorage) {}

  /**
   * A bridge started in this frame: a new document. A new top document means the tab's other frames are gone (their
   * bridges, if any, say hello again as the new document makes them). Frames removed without a new top document stay
   * listed: a collect sent to them finds no bridge and is answered at once, as before.
   */
  async note(tabId: number, frameId: number, url: string): Promise<void> {
    let frames = this.known.get(tabId);
    if (!frames || frameId === 0) {
      frames = new Map();
      this.known.set(tabId, frames);
    }
    frames.set(frameId, url);
    if (frameId === 0) {
      const stale = Object.keys(await this.storage.getAll()).filter((key) => {
        const k = parseKey(key);
        return k !== null && k.tabId === tabId && k.frameId !== 0 && !frames.has(k.frameId);
      });
      if (stale.length > 0) await this.storage.remove(stale);
    }
    await this.storage.set({ [keyOf(tabId, frameId)]: url });
  }

  /** The tab's frames with a bridge, top frame first (what a restarted worker stored, and what it learnt since). */
  async list(tabId: number): Promise<RosterFrame[]> {
    const frames = new Map<number, string>();
    for (const [key, url] of Object.entries(await this.storage.getAll())) {
      const k = parseKey(key);
      if (k && k.tabId === tabId && typeof url === 'string') frames.set(k.frameId, url);
    }
    for (const [frameId, url] of this.known.get(tabId) ?? []) frames.set(frameId, url);
    return [...frames].map(([frameId, url]) => ({ frameId, url })).sort((a, b) => a.frameId - b.frameId);
  }

  async forget(tabId: number): Promise<void> {
    this.known.delete(tabId);
    const keys = Object.keys(await this.storage.getAll()).filter((key) => parseKey(key)?.tabId === tabId);
    if (keys.length > 0) await this.storage.remove(keys);
  }
}
