// Panel (pure): turns a stored Selection into what it points at in the current analysis.
import type { Selection } from '../state/store';
import { findingKey, type PanelView } from './model';

export interface Resolved {
  findingIndex?: number;
  eventIndex?: number;
  connectionId?: string;
  /** Where the timeline should look (epoch ms). */
  time?: number;
}

export function resolveSelection(view: PanelView, selection: Selection | undefined): Resolved {
  if (!selection) return {};
  const { analysis } = view;
  switch (selection.kind) {
    case 'event': {
      const eventIndex = view.eventByKey.get(`${selection.connectionId}@${selection.start}`);
      const event = eventIndex !== undefined ? analysis.events.at(eventIndex) : undefined;
      if (!event) return {};
      return { eventIndex: event.index, connectionId: event.connectionId, time: event.time };
    }
    case 'connection': {
      const c = view.connectionsById.get(selection.connectionId);
      if (!c) return {};
      return { connectionId: c.id, time: c.record.startTime };
    }
    case 'finding': {
      const findingIndex = analysis.findings.findIndex((f) => findingKey(f) === selection.key);
      if (findingIndex < 0) return {};
      const target = view.findingTargets[findingIndex] ?? {};
      return {
        findingIndex,
        ...(target.eventIndex !== undefined ? { eventIndex: target.eventIndex } : {}),
        ...(target.connectionId !== undefined ? { connectionId: target.connectionId } : {}),
        ...(target.time !== undefined ? { time: target.time } : {}),
      };
    }
  }
}

export function eventSelection(view: PanelView, eventIndex: number): Selection | undefined {
  const event = view.analysis.events.at(eventIndex);
  return event ? { kind: 'event', connectionId: event.connectionId, start: event.start } : undefined;
}

export function findingSelection(view: PanelView, findingIndex: number): Selection | undefined {
  const finding = view.analysis.findings[findingIndex];
  return finding ? { kind: 'finding', key: findingKey(finding) } : undefined;
}
