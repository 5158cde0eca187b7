// Runs anywhere (pure): the decoders of the panel <-> background unions. The background is ours, but a bug there must
// not crash the panel, so every message is checked field by field before the panel folds it in; the background checks
// what a panel asks likewise.
import { decodeDelta, FROM_BACKGROUND } from './decode-delta';
import { decoding, flag, integer, LIMITS, list, record, text } from './decode-fields';
import type { BackgroundToPanel, PanelToBackground } from './messages';

const MAX_DELTAS_PER_MESSAGE = 200_000;
const MAX_TAB_ID = 2 ** 53;

/** A message for the panel of `tabId` (any tab when undefined), or undefined. */
export function asBackgroundToPanel(raw: unknown, tabId: number | undefined): BackgroundToPanel | undefined {
  return (
    decoding((): BackgroundToPanel | null => {
      const m = record(raw, 'message');
      const tab = integer(m.tabId, -1, MAX_TAB_ID, 'tabId');
      if (tabId !== undefined && tab !== tabId) return null;
      const deltas = () => list(m.deltas, MAX_DELTAS_PER_MESSAGE, 'deltas').map((d) => decodeDelta(d, FROM_BACKGROUND));
      const pageUrl = () => text(m.pageUrl, LIMITS.urlChars, 'pageUrl');
      switch (m.type) {
        case 'snapshot':
          return {
            type: 'snapshot',
            tabId: tab,
            pageUrl: pageUrl(),
            deltas: deltas(),
            preserveLog: flag(m.preserveLog, 'preserveLog'),
            droppedBytes:
              m.droppedBytes === undefined ? 0 : integer(m.droppedBytes, 0, Number.MAX_SAFE_INTEGER, 'dropped'),
          };
        case 'deltas':
          return { type: 'deltas', tabId: tab, deltas: deltas() };
        case 'navigated':
          return { type: 'navigated', tabId: tab, pageUrl: pageUrl(), preserveLog: flag(m.preserveLog, 'preserveLog') };
        default:
          return null;
      }
    }) ?? undefined
  );
}

export function asPanelToBackground(raw: unknown): PanelToBackground | null {
  return decoding((): PanelToBackground | null => {
    const m = record(raw, 'message');
    const tabId = integer(m.tabId, -1, MAX_TAB_ID, 'tabId');
    switch (m.type) {
      case 'attach':
        return { type: 'attach', tabId };
      case 'clear':
        return { type: 'clear', tabId };
      case 'set-preserve-log':
        return { type: 'set-preserve-log', tabId, preserve: flag(m.preserve, 'preserve') };
      default:
        return null;
    }
  });
}
