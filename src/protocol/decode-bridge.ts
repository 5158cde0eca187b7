// Runs anywhere (pure): the decoders of the bridge <-> background unions. The background checks every field of what
// a content script sends (a compromised renderer could send anything); the bridge checks the background's commands.
import { decodeDelta, FROM_BRIDGE } from './decode-delta';
import { decoding, flag, integer, LIMITS, list, record, text } from './decode-fields';
import type { BackgroundToBridge, BridgeToBackground } from './messages';

const MAX_DELTAS_PER_MESSAGE = 200_000;
const MAX_FRAME_ID = 2 ** 53;

export function asBridgeToBackground(value: unknown): BridgeToBackground | null {
  return decoding((): BridgeToBackground | null => {
    const m = record(value, 'message');
    const documentUrl = (): string => text(m.documentUrl, LIMITS.urlChars, 'documentUrl');
    const deltas = () => list(m.deltas, MAX_DELTAS_PER_MESSAGE, 'deltas').map((d) => decodeDelta(d, FROM_BRIDGE));
    switch (m.type) {
      case 'deltas':
        return {
          type: 'deltas',
          documentUrl: documentUrl(),
          ...(m.frameId !== undefined ? { frameId: integer(m.frameId, 0, MAX_FRAME_ID, 'frameId') } : {}),
          deltas: deltas(),
        };
      case 'navigated':
        return { type: 'navigated', documentUrl: documentUrl() };
      case 'snapshot-part':
        return {
          type: 'snapshot-part',
          generation: integer(m.generation, 0, Number.MAX_SAFE_INTEGER, 'generation'),
          documentUrl: documentUrl(),
          deltas: deltas(),
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
    if (m.type === 'collect')
      return { type: 'collect', generation: integer(m.generation, 0, Number.MAX_SAFE_INTEGER, 'generation') };
    return null;
  });
}
