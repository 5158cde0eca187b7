// Runs in Node (lab server): integer ids from one counter per process, starting at 1.
import { LabEventStore, type StorePolicies } from './lab-event-store';

export class IntegerEventStore extends LabEventStore {
  private counter = 0;

  constructor(policies: Partial<StorePolicies> = {}) {
    super(policies);
  }

  protected mintId(): string {
    this.counter += 1;
    return String(this.counter);
  }
}
