// Runs anywhere (pure; bridge, background, tests): the approximate wire size of a delta, for budgets and limits.
import type { ConnectionDelta } from './records';

/** JSON length for heads and ends (small), base64 length plus a little framing for chunks (cheap for big ones). */
export function deltaSize(delta: ConnectionDelta): number {
  if (delta.kind === 'chunk') return delta.b64.length + 64;
  return JSON.stringify(delta).length;
}
