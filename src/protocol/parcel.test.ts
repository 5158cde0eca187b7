import { describe, expect, it } from 'vitest';
import { pack, scopeParcel, unpack } from './parcel';
import type { ConnectionDelta } from './records';

const text = (s: string) => new TextEncoder().encode(s);

describe('parcels', () => {
  it('carry heads in order and every chunk byte in one Blob, and give back the same deltas', async () => {
    const slab = new Uint8Array(64);
    slab.set(text('id: 2\ndata: b\n\n'), 10);
    const deltas: ConnectionDelta[] = [
      { kind: 'response', id: 'c', status: 200, statusText: 'OK', responseHeaders: [], responseTime: 1 },
      { kind: 'chunk', id: 'c', t: 2, bytes: text('id: 1\ndata: a\n\n') },
      // A view into a bigger buffer (a slab of the tap's): only its own bytes travel.
      { kind: 'chunk', id: 'c', t: 3, bytes: slab.subarray(10, 25) },
      { kind: 'end', id: 'c', end: 'complete', endTime: 4 },
    ];
    const parcel = pack(deltas);
    expect(parcel.bytes.size).toBe(30);
    expect(parcel.deltas.map((d) => d.kind)).toEqual(['response', 'chunk', 'chunk', 'end']);
    const back = await unpack(parcel);
    expect(back.map((d) => (d.kind === 'chunk' ? new TextDecoder().decode(d.bytes) : d.kind))).toEqual([
      'response',
      'id: 1\ndata: a\n\n',
      'id: 2\ndata: b\n\n',
      'end',
    ]);
  });

  it('refuse to unpack a Blob that does not hold what the heads claim', async () => {
    const parcel = pack([{ kind: 'chunk', id: 'c', t: 1, bytes: text('abc') }]);
    await expect(unpack({ ...parcel, bytes: new Blob([text('ab')]) })).rejects.toThrow(/lost bytes/);
  });

  it('scope connection ids to a subframe without touching the bytes', () => {
    const parcel = pack([
      { kind: 'start', conn: { id: 'c', source: 'fetch', method: 'GET', url: 'u', requestHeaders: [], startTime: 1 } },
      { kind: 'chunk', id: 'c', t: 2, bytes: text('x') },
    ]);
    const scoped = scopeParcel(parcel, 3);
    expect(scoped.bytes).toBe(parcel.bytes);
    expect(scoped.deltas.map((d) => (d.kind === 'start' ? d.conn.id : d.id))).toEqual(['f3.c', 'f3.c']);
    expect(scopeParcel(parcel, 0)).toBe(parcel);
  });
});
