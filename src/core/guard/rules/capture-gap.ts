// Runs anywhere (pure core): rule capture-gap. Reports the holes in the recording itself, where they are, so a
// reader knows what the capture could not show; the engine keeps the other rules from judging across them.
import { formatGap } from '../../capture/gap-text';
import { recordedOffset } from '../../capture/gaps';
import { at } from '../facts';
import type { Report, Rule } from '../types';

export const captureGap: Rule = {
  id: 'capture-gap',
  severity: 'info',
  title: 'Bytes missing from the capture',
  summary:
    'The recorder lost part of this body (a bounded buffer evicted it, or it could not re-send it): the server is not judged across it.',
  check(model) {
    const reports: Report[] = [];
    for (const conn of model.connections) {
      const gaps = conn.record.gaps ?? [];
      for (const [i, gap] of gaps.entries()) {
        reports.push({
          message: `${conn.id}: ${formatGap(gap)}; findings from the event it cut into onwards are left out.`,
          ...at(conn, { byteOffset: recordedOffset(gaps, i), time: gap.t }),
        });
      }
    }
    return reports;
  },
};
