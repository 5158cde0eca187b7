// Runs in any server runtime (WHATWG crypto only): the store's `<epoch>:<seq>` event ids, read with the core's own
// `epoch-seq` scheme so the store, the panel and the CLI agree on what an id says. Touches no Node API.
import { parseId } from '../core/ids/scheme';

/** An epoch: letters, digits, `-` or `_`, 1 to 64 of them (no colon, no space: the core's `epoch-seq` scheme). */
const EPOCH = /^[A-Za-z0-9_-]{1,64}$/;

/** A fresh random epoch: 16 hex digits (64 bits), so two process starts never share one. */
export function newEpoch(): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Throws unless `epoch` can stand before the colon of an id. */
export function checkEpoch(epoch: string): string {
  if (!EPOCH.test(epoch)) throw new Error(`event store: epoch "${epoch}" must be 1-64 letters, digits, "-" or "_"`);
  return epoch;
}

/**
 * The cursor's epoch and number, or undefined when it is not an `<epoch>:<seq>` id as this store writes them (seq
 * from 1, no leading zeros: `ab:007` names no event, even if `ab:7` does).
 */
export function parseCursor(cursor: string): { epoch: string; seq: number } | undefined {
  const { epoch, seq } = parseId('epoch-seq', cursor);
  if (epoch === undefined || seq === undefined || seq < 1 || !Number.isSafeInteger(seq)) return undefined;
  return cursor === `${epoch}:${seq}` ? { epoch, seq } : undefined;
}
