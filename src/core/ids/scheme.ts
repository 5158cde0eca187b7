// Runs anywhere (pure core): event-id schemes and what each lets us check.

/**
 * How a session's event ids are built; decides which continuity checks apply: `integer` (`1`, `2`, ...),
 * `epoch-seq` (`<epoch>:<seq>`), `sdk-stream` (the MCP SDK example store's `<streamId>_<ms>_<random>`),
 * `opaque` (anything else), `none` (the session's events carry no ids).
 */
export type IdScheme = 'integer' | 'epoch-seq' | 'sdk-stream' | 'opaque' | 'none';

/** A parsed event id: `seq` for integer and epoch:seq ids, `streamKey`/`ms` for the SDK example store's ids. */
export interface ParsedId {
  raw: string;
  epoch?: string;
  seq?: number;
  streamKey?: string;
  ms?: number;
}

const INTEGER = /^\d{1,15}$/;
// One colon, no spaces: `2025-11-29 10:00:59` is a timestamp, not an epoch.
const EPOCH_SEQ = /^([^\s:]+):(\d{1,15})$/;
// The MCP SDK example InMemoryEventStore: `${streamId}_${Date.now()}_${random base36}`.
const SDK_STREAM = /^(.+)_(\d{10,16})_([a-z0-9]{1,16})$/;

function matchScheme(raw: string): Exclude<IdScheme, 'none' | 'opaque'> | undefined {
  if (INTEGER.test(raw)) return 'integer';
  if (SDK_STREAM.test(raw)) return 'sdk-stream';
  if (EPOCH_SEQ.test(raw)) return 'epoch-seq';
  return undefined;
}

/** The scheme all ids share; 'opaque' when they disagree or match none, 'none' when there are no ids. */
export function detectScheme(ids: Iterable<string>): IdScheme {
  let scheme: IdScheme = 'none';
  for (const raw of ids) {
    const found = matchScheme(raw) ?? 'opaque';
    if (scheme === 'none') scheme = found;
    else if (scheme !== found) return 'opaque';
    if (scheme === 'opaque') return 'opaque';
  }
  return scheme;
}

export function parseId(scheme: IdScheme, raw: string): ParsedId {
  if (scheme === 'integer' && INTEGER.test(raw)) return { raw, seq: Number(raw) };
  if (scheme === 'epoch-seq') {
    const match = EPOCH_SEQ.exec(raw);
    if (match) return { raw, epoch: match[1], seq: Number(match[2]) };
  }
  if (scheme === 'sdk-stream') {
    const match = SDK_STREAM.exec(raw);
    if (match) return { raw, streamKey: match[1], ms: Number(match[2]) };
  }
  return { raw };
}

/** Whether ids of this scheme are ordered so that gaps can be counted. */
export function hasSequence(scheme: IdScheme): boolean {
  return scheme === 'integer' || scheme === 'epoch-seq';
}
