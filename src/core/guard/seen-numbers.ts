// Runs anywhere (pure core): the sequence numbers delivered, per epoch (integer and epoch:seq id schemes).
import { hasSequence, parseId, type IdScheme, type ParsedId } from '../ids/scheme';
import type { EventView } from '../model/types';
import type { Follower } from './event-log';
import { NumberRuns } from './number-runs';

/** Sequence numbers delivered, per epoch: numbers other streams consumed are not gaps. */
export class SeenNumbers implements Follower {
  private readonly byEpoch = new Map<string, NumberRuns>();

  constructor(private readonly scheme: IdScheme) {}

  add(event: EventView): void {
    if (event.hasId && hasSequence(this.scheme)) this.addId(parseId(this.scheme, event.lastEventId));
  }

  /** Counts an id already parsed under this scheme. */
  addId({ epoch = '', seq }: ParsedId): void {
    if (seq === undefined) return;
    let runs = this.byEpoch.get(epoch);
    if (!runs) this.byEpoch.set(epoch, (runs = new NumberRuns()));
    runs.add(seq);
  }

  /** How many distinct numbers strictly between `low` and `high` were delivered in `epoch`. */
  countBetween(epoch: string, low: number, high: number): number {
    const runs = this.byEpoch.get(epoch);
    return runs ? runs.countBelow(high) - runs.countBelow(low + 1) : 0;
  }

  /** The least number >= n never delivered in `epoch`. */
  nextMissing(epoch: string, n: number): number {
    return this.byEpoch.get(epoch)?.nextMissing(n) ?? n;
  }

  /** The greatest number <= n never delivered in `epoch`. */
  previousMissing(epoch: string, n: number): number {
    return this.byEpoch.get(epoch)?.previousMissing(n) ?? n;
  }
}
