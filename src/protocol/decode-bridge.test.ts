import { describe, expect, it } from 'vitest';
import { asBackgroundToBridge, asBackgroundToBridgePort, asBridgeHello, asBridgeToBackground } from './decode-bridge';
import { pack } from './parcel';
import type { ConnectionDelta } from './records';

const chunk: ConnectionDelta = { kind: 'chunk', id: 'ab-1', t: 5, bytes: new TextEncoder().encode('data: x\n\n') };
const parcel = pack([chunk]);
const head = { kind: 'chunk', id: 'ab-1', t: 5, size: 9 };
const LINK = '0b6f2a4e-7c1d-4e5f-9a3b-2c8d1e0f4a5b';

describe('asBridgeToBackground', () => {
  it('accepts what a bridge sends: heads and the Blob holding their bytes', () => {
    const part = {
      type: 'snapshot-part',
      generation: 2,
      documentUrl: 'http://127.0.0.1/',
      parcel,
      last: true,
      droppedBytes: 0,
      droppedConnections: 0,
      link: LINK,
      seq: 3,
      resumed: false,
    };
    expect(asBridgeToBackground(part)).toEqual(part);
    expect(
      asBridgeToBackground({ type: 'deltas', documentUrl: 'http://127.0.0.1/', parcel, link: LINK, seq: 4 }),
    ).toEqual({
      type: 'deltas',
      documentUrl: 'http://127.0.0.1/',
      parcel: { deltas: [head], bytes: parcel.bytes },
      link: LINK,
      seq: 4,
    });
  });

  it('checks every field the router reads, not only the type', () => {
    const part = {
      type: 'snapshot-part',
      generation: 2,
      documentUrl: 'u',
      parcel,
      last: true,
      droppedBytes: 0,
      droppedConnections: 0,
      link: LINK,
      seq: 0,
      resumed: false,
    };
    expect(asBridgeToBackground(part)).not.toBeNull();
    expect(asBridgeToBackground({ ...part, generation: '2' })).toBeNull();
    expect(asBridgeToBackground({ ...part, link: 'a link' })).toBeNull();
    expect(asBridgeToBackground({ ...part, seq: 1.5 })).toBeNull();
    expect(asBridgeToBackground({ ...part, resumed: 'yes' })).toBeNull();
    expect(asBridgeToBackground({ ...part, droppedConnections: undefined })).toBeNull();
    expect(asBridgeToBackground({ type: 'deltas', documentUrl: 'u', parcel, link: LINK, seq: 0 })).toBeNull();
    expect(asBridgeToBackground({ ...part, last: 1 })).toBeNull();
    expect(asBridgeToBackground({ ...part, droppedBytes: -1 })).toBeNull();
    expect(asBridgeToBackground({ ...part, documentUrl: 7 })).toBeNull();
    // The Blob must hold exactly the bytes the heads claim, and be a Blob.
    expect(
      asBridgeToBackground({ ...part, parcel: { deltas: [{ ...head, size: 10 }], bytes: parcel.bytes } }),
    ).toBeNull();
    expect(asBridgeToBackground({ ...part, parcel: { deltas: [head], bytes: 'data: x\n\n' } })).toBeNull();
    expect(
      asBridgeToBackground({ ...part, parcel: { deltas: [{ ...head, size: 0 }], bytes: new Blob([]) } }),
    ).toBeNull();
    // A content script cannot pose as another frame's records: scoped ids come from the background only.
    expect(
      asBridgeToBackground({ ...part, parcel: { deltas: [{ ...head, id: 'f2.ab-1' }], bytes: parcel.bytes } }),
    ).toBeNull();
    expect(
      asBridgeToBackground({ type: 'deltas', documentUrl: 'u', parcel: { deltas: 'all', bytes: parcel.bytes } }),
    ).toBeNull();
    expect(asBridgeToBackground(null)).toBeNull();
  });
});

describe('asBackgroundToBridge', () => {
  it('knows collect and clear only', () => {
    expect(asBackgroundToBridge({ type: 'collect', generation: 4 })).toEqual({ type: 'collect', generation: 4 });
    expect(asBackgroundToBridge({ type: 'clear', junk: 1 })).toEqual({ type: 'clear' });
    expect(asBackgroundToBridge({ type: 'collect' })).toBeNull();
    expect(asBackgroundToBridge({ type: 'collect', generation: 4, resume: { link: LINK, seq: 2 } })).toEqual({
      type: 'collect',
      generation: 4,
      resume: { link: LINK, seq: 2 },
    });
    expect(asBackgroundToBridge({ type: 'collect', generation: 4, resume: { link: LINK } })).toBeNull();
    expect(asBackgroundToBridge({ type: 'eval', code: '1' })).toBeNull();
  });
});

describe('asBackgroundToBridgePort', () => {
  it('knows ack and idle only, with a whole seq', () => {
    expect(asBackgroundToBridgePort({ type: 'ack', seq: 3, junk: 1 })).toEqual({ type: 'ack', seq: 3 });
    expect(asBackgroundToBridgePort({ type: 'idle' })).toEqual({ type: 'idle' });
    expect(asBackgroundToBridgePort({ type: 'ack', seq: -1 })).toBeNull();
    expect(asBackgroundToBridgePort({ type: 'ack' })).toBeNull();
    expect(asBackgroundToBridgePort({ type: 'collect', generation: 1 })).toBeNull();
  });
});

describe('asBridgeHello', () => {
  it('takes only the hello, rebuilt without any extra field', () => {
    expect(asBridgeHello({ type: 'bridge-hello', url: 'http://forged/' })).toEqual({ type: 'bridge-hello' });
    expect(asBridgeHello({ type: 'deltas' })).toBeNull();
    expect(asBridgeHello('bridge-hello')).toBeNull();
    expect(asBridgeHello(null)).toBeNull();
  });
});
