// Panel (pure): what the selection points at, on the UI thread. A click shows at once from what the UI holds
// (rows, findings and ticks carry their identities); the worker's resolution adds what only it knows (the event's
// position among the rows, whether the item is still in the analysis) once its view answers for this selection.
import { selectionKey, type EventRef, type ResolvedData, type Selection, type ViewData } from '../analysis/messages';

export interface Focus {
  event?: EventRef;
  eventIndex?: number;
  connectionId?: string;
  findingKey?: string;
  findingIndex?: number;
  /** Where the timeline should look (epoch ms). */
  time?: number;
  /** The selected event's position among the rows shown, -1 when unknown or filtered out. */
  position: number;
  /** Whether the selection points at anything (assumed until the worker says otherwise). */
  found: boolean;
}

const NOTHING: Focus = { position: -1, found: false };

export function sameEvent(a: EventRef | undefined, b: { connectionId: string; start: number }): boolean {
  return a !== undefined && a.connectionId === b.connectionId && a.start === b.start;
}

export function focusOf(selection: Selection | undefined, view: ViewData | undefined): Focus {
  if (!selection) return NOTHING;
  const r: ResolvedData | undefined = view?.resolved.for === selectionKey(selection) ? view.resolved : undefined;
  const known = <K extends keyof ResolvedData>(key: K) => (r?.[key] !== undefined ? { [key]: r[key] } : {});
  switch (selection.kind) {
    case 'event':
      return {
        event: { connectionId: selection.connectionId, start: selection.start },
        connectionId: selection.connectionId,
        ...known('eventIndex'),
        ...known('time'),
        position: r?.position ?? -1,
        found: r ? r.event !== undefined : true,
      };
    case 'connection':
      return {
        connectionId: selection.connectionId,
        ...known('time'),
        position: -1,
        found: r ? r.connectionId !== undefined : true,
      };
    case 'finding': {
      const item = view?.findings.find((f) => f.key === selection.key);
      const target = item?.target;
      const event = target?.event ?? r?.event;
      const connectionId = target?.connectionId ?? r?.connectionId;
      const time = target?.time ?? r?.time;
      return {
        findingKey: selection.key,
        ...(item ? { findingIndex: item.index } : {}),
        ...(event ? { event } : {}),
        ...known('eventIndex'),
        ...(connectionId !== undefined ? { connectionId } : {}),
        ...(time !== undefined ? { time } : {}),
        position: r?.position ?? -1,
        found: r ? r.findingKey !== undefined : item !== undefined,
      };
    }
  }
}
