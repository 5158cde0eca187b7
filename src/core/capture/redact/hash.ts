// Runs anywhere (pure core): the short hash a redaction keeps, so that two requests with the same secret still look
// alike and two with different secrets do not. src/tap/redact.ts re-states it (the tap is standalone); a test checks
// that both give the same tags.

/** FNV-1a offset basis (32 bits). */
export const HASH_SEED = 0x811c9dc5;

/** One FNV-1a step: xor the unit in, multiply by the FNV prime 16777619 with shifts (exact in 32-bit integers). */
export function hashStep(hash: number, unit: number): number {
  const h = (hash ^ unit) >>> 0;
  return (h + (h << 1) + (h << 4) + (h << 7) + (h << 8) + (h << 24)) >>> 0;
}

/** Four hex digits: the 32-bit FNV-1a of the text's UTF-16 units, folded to 16 bits. */
export function shortHash(text: string): string {
  let hash = HASH_SEED;
  for (let i = 0; i < text.length; i++) hash = hashStep(hash, text.charCodeAt(i));
  return ((hash ^ (hash >>> 16)) & 0xffff).toString(16).padStart(4, '0');
}

/** What stands for a redacted header value, URL part or query value: `‹redacted:3f2a›`. */
export function redactedTag(secret: string): string {
  return `‹redacted:${shortHash(secret)}›`;
}

/** A whole value this redaction wrote (so redacting twice changes nothing), or the mask of older captures. */
export const REDACTED_TAG = /^(?:(?:bearer|basic) )?‹redacted:[0-9a-f]{4}›$|^\[redacted\]$/i;
