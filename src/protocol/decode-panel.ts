// Runs anywhere (pure): the decoders of the panel <-> background unions. The background is ours, but a bug there must
// not crash the panel, so every message is checked field by field before the panel folds it in; the background checks
// what a panel asks likewise.
import { decodeArm } from './break';
import { decodeDelta, decodeParcel, FROM_BACKGROUND } from './decode-delta';
import { link, resumePoint, seq } from './decode-bridge';
import { decoding, flag, integer, LIMITS, list, record, text } from './decode-fields';
import type { BackgroundToPanel, BreakAck, FrameResume, PanelFeed, PanelToBackground } from './messages';
import type { Parcel } from './records';

const MAX_DELTAS_PER_MESSAGE = 200_000;
const MAX_PARCELS_PER_MESSAGE = 100_000;
const MAX_TAB_ID = 2 ** 53;

/** A message from the background for the panel of `tabId` (any tab when undefined), or undefined. */
export function asBackgroundToPanel(raw: unknown, tabId: number | undefined): BackgroundToPanel | undefined {
  return panelMessage(raw, tabId, (m) => ({
    parcels: list(m.parcels, MAX_PARCELS_PER_MESSAGE, 'parcels').map(forwardedParcel),
  }));
}

/** A parcel the background forwarded, with the bridge stream it came from when the background said so. */
function forwardedParcel(value: unknown): Parcel {
  const parcel = decodeParcel(value, FROM_BACKGROUND);
  const from = record(value, 'parcel').from;
  if (from === undefined) return parcel;
  const f = record(from, 'from');
  return { ...parcel, from: { frameId: frameId(f.frameId), link: link(f.link), seq: seq(f.seq, 0) } };
}

const frameId = (value: unknown): number => integer(value, 0, MAX_TAB_ID, 'frameId');

function frameResume(value: unknown): FrameResume {
  const r = record(value, 'resume');
  return { frameId: frameId(r.frameId), ...resumePoint(r) };
}

/** What a panel transport delivered (the panel's UI thread -> its analysis worker), or undefined. */
export function asPanelFeed(raw: unknown): PanelFeed | undefined {
  return panelMessage(raw, undefined, (m) => ({
    deltas: list(m.deltas, MAX_DELTAS_PER_MESSAGE, 'deltas').map((d) => decodeDelta(d, FROM_BACKGROUND)),
  }));
}

/** The fields both forms share, checked; `records` decodes what carries the records (parcels or deltas). */
function panelMessage<R extends object>(
  raw: unknown,
  tabId: number | undefined,
  records: (m: Record<string, unknown>) => R,
):
  | ({
      type: 'snapshot';
      tabId: number;
      pageUrl: string;
      preserveLog: boolean;
      droppedBytes: number;
      droppedConnections: number;
    } & R)
  | ({ type: 'deltas'; tabId: number } & R)
  | { type: 'navigated'; tabId: number; pageUrl: string; preserveLog: boolean }
  | undefined {
  return (
    decoding(() => {
      const m = record(raw, 'message');
      const tab = integer(m.tabId, -1, MAX_TAB_ID, 'tabId');
      if (tabId !== undefined && tab !== tabId) return null;
      const pageUrl = () => text(m.pageUrl, LIMITS.urlChars, 'pageUrl');
      const preserveLog = () => flag(m.preserveLog, 'preserveLog');
      switch (m.type) {
        case 'snapshot': {
          const droppedBytes =
            m.droppedBytes === undefined ? 0 : integer(m.droppedBytes, 0, Number.MAX_SAFE_INTEGER, 'dropped');
          const droppedConnections =
            m.droppedConnections === undefined
              ? 0
              : integer(m.droppedConnections, 0, Number.MAX_SAFE_INTEGER, 'droppedConnections');
          return {
            type: 'snapshot' as const,
            tabId: tab,
            pageUrl: pageUrl(),
            preserveLog: preserveLog(),
            droppedBytes,
            droppedConnections,
            ...records(m),
          };
        }
        case 'deltas':
          return { type: 'deltas' as const, tabId: tab, ...records(m) };
        case 'navigated':
          return { type: 'navigated' as const, tabId: tab, pageUrl: pageUrl(), preserveLog: preserveLog() };
        default:
          return null;
      }
    }) ?? undefined
  );
}

/** The background's answer to a Break arm for the panel of `tabId`, or null. */
export function asBreakAck(raw: unknown, tabId: number): BreakAck | null {
  return decoding((): BreakAck | null => {
    const m = record(raw, 'message');
    if (m.type !== 'break-armed' || integer(m.tabId, -1, MAX_TAB_ID, 'tabId') !== tabId) return null;
    const armId = m.armId === null ? null : text(m.armId, 32, 'armId');
    return { type: 'break-armed', tabId, armId, taken: flag(m.taken, 'taken') };
  });
}

export function asPanelToBackground(raw: unknown): PanelToBackground | null {
  return decoding((): PanelToBackground | null => {
    const m = record(raw, 'message');
    const tabId = integer(m.tabId, -1, MAX_TAB_ID, 'tabId');
    switch (m.type) {
      case 'attach':
        return m.resume === undefined
          ? { type: 'attach', tabId }
          : { type: 'attach', tabId, resume: list(m.resume, 1024, 'resume').map(frameResume) };
      case 'ack':
        return { type: 'ack', tabId, frameId: frameId(m.frameId), link: link(m.link), seq: seq(m.seq, 0) };
      case 'clear':
        return { type: 'clear', tabId };
      case 'set-preserve-log':
        return { type: 'set-preserve-log', tabId, preserve: flag(m.preserve, 'preserve') };
      case 'break':
        return { type: 'break', tabId, arm: decodeArm(m.arm) };
      default:
        return null;
    }
  });
}
