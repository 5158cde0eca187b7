// Runs anywhere (pure): the decoders of the bridge <-> background unions. The background checks every field of what
// a content script sends (a compromised renderer could send anything); the bridge checks the background's commands.
import { decodeArm } from './break';
import { decodeParcel, FROM_PAGE } from './decode-delta';
import { decoding, flag, integer, LIMITS, record, text } from './decode-fields';
import type { BackgroundToBridge, BridgeToBackground } from './messages';

export function asBridgeToBackground(value: unknown): BridgeToBackground | null {
  return decoding((): BridgeToBackground | null => {
    const m = record(value, 'message');
    const documentUrl = (): string => text(m.documentUrl, LIMITS.urlChars, 'documentUrl');
    const parcel = () => decodeParcel(m.parcel, FROM_PAGE);
    switch (m.type) {
      case 'deltas':
        return { type: 'deltas', documentUrl: documentUrl(), parcel: parcel() };
      case 'navigated':
        return { type: 'navigated', documentUrl: documentUrl() };
      case 'snapshot-part':
        return {
          type: 'snapshot-part',
          generation: integer(m.generation, 0, Number.MAX_SAFE_INTEGER, 'generation'),
          documentUrl: documentUrl(),
          parcel: parcel(),
          last: flag(m.last, 'last'),
          droppedBytes: integer(m.droppedBytes, 0, Number.MAX_SAFE_INTEGER, 'droppedBytes'),
        };
      default:
        return null;
    }
  });
}

export function asBackgroundToBridge(value: unknown): BackgroundToBridge | null {
  return decoding((): BackgroundToBridge | null => {
    const m = record(value, 'message');
    if (m.type === 'clear') return { type: 'clear' };
    if (m.type === 'break') return { type: 'break', arm: decodeArm(m.arm) };
    if (m.type === 'collect')
      return { type: 'collect', generation: integer(m.generation, 0, Number.MAX_SAFE_INTEGER, 'generation') };
    return null;
  });
}
