// Runs anywhere (pure; bridge, background, tests): the approximate wire size of a delta, for budgets and limits.
import type { ConnectionDelta } from './records';

/** Byte length plus a little framing for chunks; a rough, allocation-free estimate for heads and ends. */
export function deltaSize(delta: ConnectionDelta): number {
  switch (delta.kind) {
    case 'chunk':
      return delta.bytes.byteLength + 64;
    case 'start': {
      const c = delta.conn;
      return 128 + c.url.length + (c.requestBody?.length ?? 0) + headersSize(c.requestHeaders);
    }
    case 'response':
      return 128 + delta.statusText.length + headersSize(delta.responseHeaders);
    case 'end':
      return 96 + (delta.error?.length ?? 0);
    case 'fault':
      return 128 + delta.mark.fault.length + delta.mark.note.length;
    case 'gap':
      return 96;
  }
}

function headersSize(headers: readonly { name: string; value: string }[]): number {
  let size = 0;
  for (const h of headers) size += h.name.length + h.value.length + 16;
  return size;
}
