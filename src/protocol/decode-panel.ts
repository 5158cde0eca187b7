// Runs anywhere (pure): the decoders of the panel <-> background unions. The background is ours, but a bug there must
// not crash the panel, so every message is checked field by field before the panel folds it in; the background checks
// what a panel asks likewise.
import { decodeDelta, decodeParcel, FROM_BACKGROUND } from './decode-delta';
import { decoding, flag, integer, LIMITS, list, record, text } from './decode-fields';
import type { BackgroundToPanel, PanelFeed, PanelToBackground } from './messages';

const MAX_DELTAS_PER_MESSAGE = 200_000;
const MAX_TAB_ID = 2 ** 53;

const MAX_PARCELS_PER_MESSAGE = 100_000;

/** A message from the background for the panel of `tabId` (any tab when undefined), or undefined. */
export function asBackgroundToPanel(raw: unknown, tabId: number | undefined): BackgroundToPanel | undefined {
  return (
    decoding((): BackgroundToPanel | null => {
      const m = record(raw, 'message');
      const tab = integer(m.tabId, -1, MAX_TAB_ID, 'tabId');
      if (tabId !== undefined && tab !== tabId) return null;
      const parcels = () =>
        list(m.parcels, MAX_PARCELS_PER_MESSAGE, 'parcels').map((p) => decodeParcel(p, FROM_BACKGROUND));
      switch (m.type) {
        case 'snapshot':
          return { ...snapshotFields(m, tab), parcels: parcels() };
        case 'deltas':
          return { type: 'deltas', tabId: tab, parcels: parcels() };
        case 'navigated':
          return navigated(m, tab);
        default:
          return null;
      }
    }) ?? undefined
  );
}

/** What a panel transport delivered (the panel's UI thread -> its analysis worker), or undefined. */
export function asPanelFeed(raw: unknown): PanelFeed | undefined {
  return (
    decoding((): PanelFeed | null => {
      const m = record(raw, 'message');
      const tab = integer(m.tabId, -1, MAX_TAB_ID, 'tabId');
      const deltas = () => list(m.deltas, MAX_DELTAS_PER_MESSAGE, 'deltas').map((d) => decodeDelta(d, FROM_BACKGROUND));
      switch (m.type) {
        case 'snapshot':
          return { ...snapshotFields(m, tab), deltas: deltas() };
        case 'deltas':
          return { type: 'deltas', tabId: tab, deltas: deltas() };
        case 'navigated':
          return navigated(m, tab);
        default:
          return null;
      }
    }) ?? undefined
  );
}

function snapshotFields(m: Record<string, unknown>, tab: number) {
  return {
    type: 'snapshot' as const,
    tabId: tab,
    pageUrl: text(m.pageUrl, LIMITS.urlChars, 'pageUrl'),
    preserveLog: flag(m.preserveLog, 'preserveLog'),
    droppedBytes: m.droppedBytes === undefined ? 0 : integer(m.droppedBytes, 0, Number.MAX_SAFE_INTEGER, 'dropped'),
  };
}

function navigated(m: Record<string, unknown>, tab: number) {
  return {
    type: 'navigated' as const,
    tabId: tab,
    pageUrl: text(m.pageUrl, LIMITS.urlChars, 'pageUrl'),
    preserveLog: flag(m.preserveLog, 'preserveLog'),
  };
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
