// Runs anywhere (pure): the decoders of the bridge <-> background unions. The background checks every field of what
// a content script sends (a compromised renderer could send anything); the bridge checks the background's commands.
import { decodeArm } from './break';
import { decodeParcel, FROM_PAGE } from './decode-delta';
import { decoding, fail, flag, integer, LIMITS, record, text } from './decode-fields';
import type {
  BackgroundToBridge,
  BackgroundToBridgePort,
  BridgeHello,
  BridgeToBackground,
  ResumePoint,
} from './messages';

/** A bridge's one-shot hello (runtime.onMessage also hears other extension messages: anything else is null). */
export function asBridgeHello(value: unknown): BridgeHello | null {
  return decoding((): BridgeHello | null =>
    record(value, 'message').type === 'bridge-hello' ? { type: 'bridge-hello' } : null,
  );
}

export function asBridgeToBackground(value: unknown): BridgeToBackground | null {
  return decoding((): BridgeToBackground | null => {
    const m = record(value, 'message');
    const documentUrl = (): string => text(m.documentUrl, LIMITS.urlChars, 'documentUrl');
    const parcel = () => decodeParcel(m.parcel, FROM_PAGE);
    switch (m.type) {
      case 'deltas':
        return { type: 'deltas', documentUrl: documentUrl(), parcel: parcel(), link: link(m.link), seq: seq(m.seq, 1) };
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
          droppedConnections: integer(m.droppedConnections, 0, Number.MAX_SAFE_INTEGER, 'droppedConnections'),
          link: link(m.link),
          seq: seq(m.seq, 0),
          resumed: flag(m.resumed, 'resumed'),
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
    if (m.type === 'collect') {
      const generation = integer(m.generation, 0, Number.MAX_SAFE_INTEGER, 'generation');
      return m.resume === undefined
        ? { type: 'collect', generation }
        : { type: 'collect', generation, resume: resumePoint(m.resume) };
    }
    return null;
  });
}

/** What the background sends on a bridge's Port: acknowledgements, and "nobody watches". */
export function asBackgroundToBridgePort(value: unknown): BackgroundToBridgePort | null {
  return decoding((): BackgroundToBridgePort | null => {
    const m = record(value, 'message');
    if (m.type === 'ack') return { type: 'ack', seq: seq(m.seq, 0) };
    if (m.type === 'idle') return { type: 'idle' };
    return null;
  });
}

/** A bridge's link id (a UUID it made). */
export function link(value: unknown): string {
  const s = text(value, 64, 'link');
  if (!/^[\w-]{1,64}$/.test(s)) fail('link');
  return s;
}

export function seq(value: unknown, min: number): number {
  return integer(value, min, Number.MAX_SAFE_INTEGER, 'seq');
}

export function resumePoint(value: unknown): ResumePoint {
  const r = record(value, 'resume');
  return { link: link(r.link), seq: seq(r.seq, 0) };
}
