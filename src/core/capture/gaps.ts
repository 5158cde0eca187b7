// Runs anywhere (pure core): where a capture gap sits among a record's recorded bytes.
import type { CaptureGap } from './model';

/** Where gap `index` sits among the recorded bytes (its offset counts the page's body, earlier gaps included). */
export function recordedOffset(gaps: readonly CaptureGap[], index: number): number {
  let missing = 0;
  for (let i = 0; i < index; i++) missing += (gaps[i] as CaptureGap).bytes;
  return (gaps[index] as CaptureGap).offset - missing;
}
