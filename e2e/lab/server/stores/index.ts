// Runs in Node (lab server): picks the event store an instance uses for its id scheme.
import type { LabIdScheme, RingSettings } from '../../scenarios';
import { EpochEventStore } from './epoch-store';
import { IntegerEventStore } from './integer-store';
import type { LabEventStore, UnknownCursorPolicy } from './lab-event-store';
import { RingBufferEventStore } from './ring-buffer-store';
import { SdkStyleEventStore } from './sdk-style-store';

export interface StoreSettings {
  idScheme: LabIdScheme;
  epoch: string;
  ring?: RingSettings;
  onUnknownCursor: UnknownCursorPolicy;
}

/** Undefined for 'none': the origin then runs without resumability. */
export function createEventStore(settings: StoreSettings): LabEventStore | undefined {
  const { onUnknownCursor, ring } = settings;
  switch (settings.idScheme) {
    case 'none':
      return undefined;
    case 'sdk-stream':
      return new SdkStyleEventStore({ onUnknownCursor });
    case 'epoch-seq':
      return new EpochEventStore(settings.epoch, { onUnknownCursor });
    case 'integer':
      return ring
        ? new RingBufferEventStore(ring, { onUnknownCursor, onEvictedCursor: ring.onEvictedCursor })
        : new IntegerEventStore({ onUnknownCursor });
  }
}
