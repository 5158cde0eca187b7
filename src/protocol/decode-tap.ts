// Runs anywhere (pure; the bridge uses it): the decoder of what a page tap posts (TapToBridge). A page can post
// anything on the port it holds, so nothing is trusted: every field is checked and copied; anything off rejects the
// whole message.
import { decodeDelta, FROM_PAGE } from './decode-delta';
import { decoding, integer, LIMITS, list, record, text } from './decode-fields';
import { TAP_SOURCE } from './events';
import type { TapToBridge } from './messages';

/** The message, rebuilt from checked fields only, or null when anything is off. */
export function asTapToBridge(value: unknown): TapToBridge | null {
  return decoding(() => {
    const m = record(value, 'message');
    if (m.source !== TAP_SOURCE) return null;
    const instance = text(m.instance, 64, 'instance');
    const deltas = list(m.deltas, LIMITS.deltas, 'deltas').map((d) => decodeDelta(d, FROM_PAGE));
    const out: TapToBridge = { source: TAP_SOURCE, instance, deltas };
    if (m.flushed !== undefined) out.flushed = integer(m.flushed, 0, Number.MAX_SAFE_INTEGER, 'flushed');
    if (m.armed !== undefined) out.armed = m.armed === null ? null : text(m.armed, 32, 'armed');
    return out;
  });
}
