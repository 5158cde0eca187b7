// Runs anywhere (pure; Blob is a web and Node global): packs deltas into a Parcel (heads + one Blob of the chunks'
// bytes) and back. Why a Blob: measured in Chromium 156 on this project's machine, posting chunk bytes on a runtime
// Port costs the sending thread 20-35 ms per MiB (64 MB: 1.3-2.2 s of the page's own thread), and each receiver
// pays again to deserialize them; a Blob travels by handle, so only `new Blob` copies (about 4 ms per MiB plus
// some 10 ms per Blob: one Blob per message, not per chunk).
import type { BackgroundToPanel, PanelFeed, TransportMessage } from './messages';
import type { ConnectionDelta, Parcel, ParcelDelta } from './records';

/** The deltas with their chunk bytes moved into one Blob (a view contributes its own bytes only). */
export function pack(deltas: readonly ConnectionDelta[]): Parcel {
  const heads: ParcelDelta[] = [];
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (const d of deltas) {
    if (d.kind !== 'chunk') {
      heads.push(d);
      continue;
    }
    heads.push({ kind: 'chunk', id: d.id, t: d.t, size: d.bytes.byteLength });
    parts.push(d.bytes as Uint8Array<ArrayBuffer>);
  }
  return { deltas: heads, bytes: new Blob(parts) };
}

/** Bytes the parcel's chunks claim; a decoder checks it against the Blob's size. */
export function parcelBytes(deltas: readonly ParcelDelta[]): number {
  let total = 0;
  for (const d of deltas) if (d.kind === 'chunk') total += d.size;
  return total;
}

/** The deltas again, each chunk a view of one buffer read from the Blob. */
export async function unpack(parcel: Parcel): Promise<ConnectionDelta[]> {
  const buffer = parcel.deltas.some((d) => d.kind === 'chunk') ? await parcel.bytes.arrayBuffer() : new ArrayBuffer(0);
  if (buffer.byteLength !== parcelBytes(parcel.deltas)) throw new Error('a parcel lost bytes on the way');
  const out: ConnectionDelta[] = [];
  let at = 0;
  for (const d of parcel.deltas) {
    if (d.kind !== 'chunk') {
      out.push(d);
      continue;
    }
    out.push({ kind: 'chunk', id: d.id, t: d.t, bytes: new Uint8Array(buffer, at, d.size) });
    at += d.size;
  }
  return out;
}

/** Connection ids of subframes get a frame prefix: two frames' taps can never collide (or pose as each other). */
export function scopeId(frameId: number, id: string): string {
  return frameId === 0 ? id : `f${frameId}.${id}`;
}

/** The parcel with its connection ids scoped to `frameId` (the Blob is shared, not copied). */
export function scopeParcel(parcel: Parcel, frameId: number): Parcel {
  if (frameId === 0) return parcel;
  const deltas = parcel.deltas.map((d): ParcelDelta => {
    if (d.kind === 'start') return { kind: 'start', conn: { ...d.conn, id: scopeId(frameId, d.conn.id) } };
    return { ...d, id: scopeId(frameId, d.id) };
  });
  return { deltas, bytes: parcel.bytes };
}

/** The background's message with its parcels read back into deltas, in order. */
export async function unpackMessage(message: BackgroundToPanel): Promise<PanelFeed> {
  if (message.type === 'navigated') return message;
  const deltas = (await Promise.all(message.parcels.map(unpack))).flat();
  if (message.type === 'deltas') return { type: 'deltas', tabId: message.tabId, deltas };
  const { tabId, pageUrl, preserveLog, droppedBytes, droppedConnections } = message;
  return {
    type: 'snapshot',
    tabId,
    pageUrl,
    deltas,
    preserveLog,
    droppedBytes,
    ...(droppedConnections !== undefined ? { droppedConnections } : {}),
  };
}

/** Whether the message carries records (deltas, or parcels holding some). */
export function carriesRecords(message: TransportMessage): boolean {
  if (message.type === 'navigated') return false;
  if ('parcels' in message) return message.parcels.some((p) => p.deltas.length > 0);
  return message.deltas.length > 0;
}
