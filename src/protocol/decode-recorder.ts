// Runs anywhere (pure; the Playwright fixture's recorder uses it in Node): the decoder of what the fixture's receiver
// sends from the page (RecorderToNode). The page can reach the objects it is built from (prototypes, getters), so
// nothing is trusted: every field is checked and copied; anything off rejects the whole message.
import { decodeDelta, FROM_PAGE } from './decode-delta';
import { decoding, fail, integer, LIMITS, list, record, text } from './decode-fields';
import type { RecorderToNode } from './messages';

/** The message, rebuilt from checked fields only, or null when anything is off. */
export function asRecorderToNode(value: unknown): RecorderToNode | null {
  return decoding((): RecorderToNode => {
    const m = record(value, 'message');
    const instance = text(m.instance, 64, 'instance');
    switch (m.kind) {
      case 'hello':
        return { kind: 'hello', instance };
      case 'next':
        return { kind: 'next', instance };
      case 'deltas': {
        const deltas = list(m.deltas, LIMITS.deltas, 'deltas').map((d) => decodeDelta(d, FROM_PAGE));
        if (m.flushed === undefined) return { kind: 'deltas', instance, deltas };
        return { kind: 'deltas', instance, deltas, flushed: integer(m.flushed, 0, Number.MAX_SAFE_INTEGER, 'flushed') };
      }
      default:
        return fail('kind');
    }
  });
}
