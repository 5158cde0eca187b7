// Runs in Node (lab server): `<epoch>:<seq>` ids; the epoch is fixed per server instance, seq restarts at 1.
import { LabEventStore, type StorePolicies } from './lab-event-store';

export class EpochEventStore extends LabEventStore {
  private seq = 0;

  constructor(
    readonly epoch: string,
    policies: Partial<StorePolicies> = {},
  ) {
    super(policies);
  }

  protected mintId(): string {
    this.seq += 1;
    return `${this.epoch}:${this.seq}`;
  }
}
