// Runs anywhere (pure core): how a fault says that it struck, for the proxy's `fault ...` line and the tap's marks.

export type ReportDetail = Record<string, string | number | boolean | null>;

/** A fault that struck: which one (as written), what it did, and the facts of it. */
export interface FaultReport {
  fault: string;
  action: string;
  detail: ReportDetail;
}
