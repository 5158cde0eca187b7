// Runs anywhere (pure core): how a fault says that it struck, for the proxy's `fault ...` line and the tap's marks.

import type { CutInfo } from './sse-tap';

export type ReportDetail = Record<string, string | number | boolean | null>;

/** Where a cut fell, as every cutting fault reports it (cut-mid-event, cut-at-boundary, idle-cut). */
export function cutDetail(info: CutInfo): ReportDetail {
  return {
    midEvent: info.midEvent,
    frameIndex: info.frameIndex,
    bytesIntoFrame: info.bytesIntoFrame,
    bytesForwarded: info.bytesForwarded,
    tornEventId: info.tornEventId ?? null,
    lastCompleteEventId: info.lastCompleteEventId ?? null,
  };
}

/** A fault that struck: which one (as written), what it did, and the facts of it. */
export interface FaultReport {
  fault: string;
  action: string;
  detail: ReportDetail;
}
