import { describe, expect, it } from 'vitest';
import type { EventList, EventView } from '../model/types';
import { ByKey, byConnection, EventLog, IndexKind, type Follower } from './event-log';

const event = (connectionId: string): EventView =>
  ({ connectionId, sessionKey: 'S', lastEventId: '', hasId: false }) as EventView;

/** A list of given views (the model's own lists make views on demand). */
const listOf = (events: readonly EventView[]): EventList => ({
  length: events.length,
  at: (index) => events[index],
  [Symbol.iterator]: () => events[Symbol.iterator](),
});

class Counter implements Follower {
  count = 0;
  add(): void {
    this.count += 1;
  }
}

describe('event log', () => {
  it('continues only a list that starts with the events so far', () => {
    const [a, b, c] = [event('c1'), event('c1'), event('c2')];
    const log = new EventLog();
    expect(log.continueWith(listOf([a, b]))).toBe(true);
    expect(log.continueWith(listOf([a, b, c]))).toBe(true);
    expect(log.continueWith(listOf([a, c, b]))).toBe(false);
    expect(log.continueWith(listOf([a]))).toBe(false);
    expect([...log.events]).toEqual([a, b, c]);
  });

  it('brings an index up to date with only the events that arrived since it was asked', () => {
    const kind = new IndexKind(() => new Counter());
    const log = new EventLog();
    log.continueWith(listOf([event('c1'), event('c1')]));
    expect(kind.of(log).count).toBe(2);
    log.continueWith(listOf([...log.events, event('c2')]));
    expect(kind.of(log).count).toBe(3);
    expect(kind.of(log).count).toBe(3);
    // Another log has an index of its own.
    expect(kind.of(new EventLog()).count).toBe(0);
  });

  it('keeps one index per key', () => {
    const index = new ByKey(byConnection, () => new Counter());
    for (const e of [event('c1'), event('c2'), event('c1')]) index.add(e);
    expect([index.get('c1').count, index.get('c2').count, index.get('c3').count]).toEqual([2, 1, 0]);
  });
});
