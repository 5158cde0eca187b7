// Runs anywhere (pure core): a capture gap in words, the same in the rule's finding, the CLI and the panel.
import type { CaptureGap } from './model';

const CAUSES: Record<CaptureGap['cause'], string> = {
  evicted: "evicted from the tab's bounded buffer before a panel attached",
  unacknowledged: 'not re-sent after the extension worker restarted (more than the bridge could hold)',
  'panel-budget': "given up by the panel's per-tab memory budget (oldest finished connections first)",
};

/** "4,194,304 bytes at body offset 65,536 not recorded: evicted from ..." */
export function formatGap(gap: CaptureGap): string {
  return `${gap.bytes.toLocaleString('en-US')} bytes at body offset ${gap.offset.toLocaleString('en-US')} not recorded: ${CAUSES[gap.cause]}`;
}
