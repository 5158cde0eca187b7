// Runs in Node (lab server): a bounded store with integer ids. It holds `slots` slots of
// `slotBytes`; an event takes as many slots as its size needs, and the oldest events are evicted
// to make room (a single event bigger than the ring is kept alone).
import { LabEventStore, type StorePolicies, type StoredEvent } from './lab-event-store';

export interface RingCapacity {
  slots: number;
  slotBytes: number;
}

export class RingBufferEventStore extends LabEventStore {
  private counter = 0;

  constructor(
    private readonly capacity: RingCapacity,
    policies: Partial<StorePolicies> = {},
  ) {
    super(policies);
    if (capacity.slots < 1 || capacity.slotBytes < 1) throw new Error('ring capacity must be positive');
  }

  protected mintId(): string {
    this.counter += 1;
    return String(this.counter);
  }

  private slotsOf(event: StoredEvent): number {
    return Math.max(1, Math.ceil(event.bytes / this.capacity.slotBytes));
  }

  protected override selectEvictions(added: StoredEvent): StoredEvent[] {
    let used = this.retained.reduce((sum, event) => sum + this.slotsOf(event), 0);
    const evictions: StoredEvent[] = [];
    for (const oldest of this.retained) {
      if (used <= this.capacity.slots || oldest === added) break;
      evictions.push(oldest);
      used -= this.slotsOf(oldest);
    }
    return evictions;
  }
}
