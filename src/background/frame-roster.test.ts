import { describe, expect, it } from 'vitest';
import { FrameRoster, type RosterStorage } from './frame-roster';

/** A session storage: one map, shared by the rosters of a worker and of the worker that replaced it. */
function storage(): RosterStorage & { items: Map<string, unknown> } {
  const items = new Map<string, unknown>();
  return {
    items,
    getAll: async () => Object.fromEntries(items),
    set: async (more) => {
      for (const [k, v] of Object.entries(more)) items.set(k, v);
    },
    remove: async (keys) => {
      for (const k of keys) items.delete(k);
    },
  };
}

describe('FrameRoster', () => {
  it('lists the frames that said hello, top first, per tab', async () => {
    const roster = new FrameRoster(storage());
    await roster.note(1, 0, 'http://127.0.0.1/a');
    await roster.note(1, 7, 'data:text/html,x');
    await roster.note(2, 0, 'http://127.0.0.1/b');
    expect(await roster.list(1)).toEqual([
      { frameId: 0, url: 'http://127.0.0.1/a' },
      { frameId: 7, url: 'data:text/html,x' },
    ]);
    expect(await roster.list(2)).toEqual([{ frameId: 0, url: 'http://127.0.0.1/b' }]);
  });

  it('a new top document drops the subframes of the old one, keeping those the new one made', async () => {
    const roster = new FrameRoster(storage());
    await roster.note(1, 0, 'http://127.0.0.1/a');
    await roster.note(1, 3, 'http://127.0.0.1/old-frame');
    const top = roster.note(1, 0, 'http://127.0.0.1/b');
    // The new document's frame says hello while the top's note is still being written.
    const child = roster.note(1, 4, 'http://127.0.0.1/new-frame');
    await Promise.all([top, child]);
    expect(await roster.list(1)).toEqual([
      { frameId: 0, url: 'http://127.0.0.1/b' },
      { frameId: 4, url: 'http://127.0.0.1/new-frame' },
    ]);
  });

  it('a restarted worker still knows the frames (session storage), and forgets a closed tab', async () => {
    const store = storage();
    await new FrameRoster(store).note(1, 0, 'http://127.0.0.1/a');
    await new FrameRoster(store).note(1, 2, 'http://127.0.0.1/f');
    const restarted = new FrameRoster(store);
    expect((await restarted.list(1)).map((f) => f.frameId)).toEqual([0, 2]);
    await restarted.forget(1);
    expect(await restarted.list(1)).toEqual([]);
    expect(store.items.size).toBe(0);
  });

  it('ignores other keys of the storage', async () => {
    const store = storage();
    store.items.set('preserveLog.1', true);
    store.items.set('frame.1.x', 'junk');
    const roster = new FrameRoster(store);
    expect(await roster.list(1)).toEqual([]);
    await roster.forget(1);
    expect(store.items.get('preserveLog.1')).toBe(true);
  });
});
