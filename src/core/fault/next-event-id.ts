// Runs anywhere (pure core): the id a server would give the next event after a cursor, in the cursor's own scheme,
// for `close-resumes`' priming event (so a resume it answers reads as a continuation, not a restart).
import { parseId } from '../ids/scheme';

/**
 * `7` -> `8`, `ab12:7` -> `ab12:8`, an MCP SDK example-store id `<stream>_<ms>_<random>` -> the same stream one
 * millisecond later; anything else (an opaque id) gets `-1` appended, since nothing orders opaque ids.
 */
export function nextEventId(cursor: string): string {
  const integer = parseId('integer', cursor);
  if (integer.seq !== undefined) return String(integer.seq + 1);
  const sdk = parseId('sdk-stream', cursor);
  if (sdk.streamKey !== undefined && sdk.ms !== undefined) return `${sdk.streamKey}_${sdk.ms + 1}_0`;
  const epoch = parseId('epoch-seq', cursor);
  if (epoch.epoch !== undefined && epoch.seq !== undefined) return `${epoch.epoch}:${epoch.seq + 1}`;
  return `${cursor}-1`;
}
