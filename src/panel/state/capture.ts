// Panel (pure): turns raw records into a Capture for analysis and export, and back into records on import.
import { TOOL_NAME, type Capture } from '../../core/capture/model';
import type { RecordsState } from './records';

export interface CaptureMeta {
  toolVersion: string;
  pageUrl?: string;
  createdAt: number;
  /** Until when the records were watched: the export's moment for live records, what an imported file said. */
  observedUntil?: number;
}

export function recordsToCapture(records: RecordsState, meta: CaptureMeta): Capture {
  return {
    tool: { name: TOOL_NAME, version: meta.toolVersion },
    createdAt: meta.createdAt,
    ...(meta.pageUrl ? { page: { url: meta.pageUrl } } : {}),
    ...(meta.observedUntil === undefined ? {} : { observedUntil: meta.observedUntil }),
    connections: records.connections.slice(),
  };
}

export function captureToRecords(capture: Capture): RecordsState {
  const indexById = new Map<string, number>();
  capture.connections.forEach((c, i) => indexById.set(c.id, i));
  return { connections: capture.connections.slice(), indexById, ignoredIds: new Set(), orphanDeltas: 0 };
}
