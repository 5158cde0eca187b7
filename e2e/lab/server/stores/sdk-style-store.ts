// Runs in Node (lab server): ids like the SDK example InMemoryEventStore, `<streamId>_<ms>_<random>`.
import { LabEventStore } from './lab-event-store';

export class SdkStyleEventStore extends LabEventStore {
  protected mintId(streamId: string): string {
    return `${streamId}_${Date.now()}_${Math.random().toString(36).substring(2, 10)}`;
  }
}
