// Runs anywhere (pure core): the thresholds of the silence rules (request-hang, idle-timeout-cut, buffered-stream),
// and when a capture stopped watching. No clock: "now" is what the capture says it watched until.
import type { Capture, ConnectionRecord } from '../capture/model';

/** How long a silence must be before the silence rules speak; settable in the CLI and the panel's settings. */
export interface SilenceThresholds {
  /** A request unanswered while its stream is open and has sent no message for this long is a hang. */
  hangMs: number;
  /** Connections cut after at least this much silence, the same silence again and again, are an idle timeout. */
  idleCutMs: number;
  /** A response whose first body byte came this long after the request, with its progress and answer in one burst, was held. */
  bufferedWaitMs: number;
}

/**
 * Defaults: a tool may think for a while, so a hang is a long silence (30 s; the SDKs' request timeout is 60 s);
 * intermediaries' idle timeouts seen in the field run from 3 s (a tuned nginx) to 300 s, and 1 s keeps out the
 * jitter of servers that close at once; a held response shows once its first byte waited a second.
 */
export const DEFAULT_SILENCE: SilenceThresholds = { hangMs: 30_000, idleCutMs: 1_000, bufferedWaitMs: 1_000 };

/** The last moment a record shows activity: its last body byte, else its response head, else its request. */
export function lastActivity(record: ConnectionRecord): number {
  const last = record.chunks.at(-1);
  return last?.t ?? record.responseTime ?? record.startTime;
}

/**
 * Until when the capture watched its connections: `observedUntil` when the recorder says (the panel, the proxy),
 * else the latest moment any record shows (an open stream was watched at least that long).
 */
export function observedUntil(capture: Capture): number {
  let latest = capture.observedUntil ?? Number.NEGATIVE_INFINITY;
  for (const record of capture.connections) latest = Math.max(latest, record.endTime ?? lastActivity(record));
  return Number.isFinite(latest) ? latest : 0;
}
