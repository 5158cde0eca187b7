// Panel (pure): finding an event of a connection by its id, remembered from one analysis pass to the next. A finding
// that names an event id but no byte inside an event (a torn tail's id, a replayed id) was looked up across every
// event of its connection on every pass: 60k view objects made per pass on a 100k-event capture. While the events
// continue the last pass's list, the events already searched are unchanged, so only the new ones are read.
import { eventListContinues } from '../../core/model/event-list';
import type { ConnectionView, EventList } from '../../core/model/types';

export interface IdSearch {
  /** The first of `connection`'s events that carried `eventId` as its own id, by index in `events`. */
  find(events: EventList, connection: ConnectionView, eventId: string): number | undefined;
}

interface Searched {
  /** How many of the connection's event indexes were read, and the index found among them. */
  covered: number;
  found?: number;
}

export function createIdSearch(): IdSearch {
  let lastEvents: EventList | undefined;
  let searched = new Map<string, Searched>();
  return {
    find(events, connection, eventId) {
      if (lastEvents !== events) {
        if (!(lastEvents && eventListContinues(events, lastEvents))) searched = new Map();
        lastEvents = events;
      }
      const key = `${connection.id}\n${eventId}`;
      const indexes = connection.eventIndexes;
      let entry = searched.get(key);
      if (!entry || entry.covered > indexes.length) searched.set(key, (entry = { covered: 0 }));
      if (entry.found !== undefined) return entry.found;
      for (let k = entry.covered; k < indexes.length; k++) {
        const e = events.at(indexes.at(k) as number);
        if (e !== undefined && e.hasId && e.lastEventId === eventId) {
          entry.found = indexes.at(k);
          break;
        }
      }
      entry.covered = indexes.length;
      return entry.found;
    },
  };
}
