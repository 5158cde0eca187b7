// Runs in Node (CLI), types only: what `analyze` hands each report writer, one file at a time.
import type { Analysis } from '../core/analyze';
import type { Place } from './locate';

/** One input file, analyzed (with where each finding shows in it) or not (why, as also said on stderr). */
export type FileOutcome =
  | { file: string; ok: true; analysis: Analysis; places: Place[] }
  | { file: string; ok: false; code: number; error: { path: string; message: string } };

/** Gets each file's outcome as soon as it is ready, then `finish` once all are done. */
export interface ReportWriter {
  write(outcome: FileOutcome): void;
  finish(): void;
}
