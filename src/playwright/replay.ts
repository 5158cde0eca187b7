// Node (the test's process): `mcpReplay(page, 'bug.capture.json')`, a recorded MCP server served again for the page
// under test (src/replay/, docs/replay.md), so a capture of a bug becomes a regression test. The replay lives as long
// as the page (or until close()); it answers the page's origin through CORS, whatever origin the page has.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { loadInput } from '../core/capture/load';
import type { Capture } from '../core/capture/model';
import type { Fault } from '../core/fault/fault';
import { parseFaultSpec } from '../core/fault/spec';
import type { Divergence } from '../core/replay/divergence';
import type { ExchangeRecorder } from '../proxy/trace';
import { startReplay } from '../replay/replay-server';

/** Options of {@link mcpReplay}. */
export interface McpReplayOptions {
  /** Recorded times are divided by it: 1 (default) as recorded, 0 as fast as possible. */
  speed?: number;
  /** The fault proxy's fault specs (`cut-mid-event:60`, as `--fault` takes them), struck on the replayed streams. */
  faults?: readonly string[];
  /** A HAR's chunks.ndjson companion (a path): the recorded chunk boundaries and times a HAR alone lacks. */
  chunks?: string;
  /** Fixed port (default: a free one). */
  port?: number;
  /** Hears every exchange as the page received it from the replay. */
  recorder?: ExchangeRecorder;
}

/** A replay serving the page under test. */
export interface McpReplay {
  /** The recorded endpoint on the replay (its origin with the first recorded request's path): give it to the page. */
  readonly url: string;
  readonly origin: string;
  /** Where the page did something the recorded client did not (docs/replay.md), in order. */
  divergences(): readonly Divergence[];
  /** The recorded responses the input had no body for (DevTools HARs drop cut streams' bodies). */
  missingBodies(): string[];
  /** Stops the replay now (it stops by itself when the page closes). */
  close(): Promise<void>;
}

/**
 * Serves a capture (a capture file or HAR path, relative to the working directory, or a capture already loaded) on
 * 127.0.0.1 for `page`, until the page or its context closes.
 * @example const replay = await mcpReplay(page, 'bug.capture.json'); await page.goto(`/app?mcp=${replay.url}`);
 */
export async function mcpReplay(
  page: Page,
  input: string | Capture,
  options: McpReplayOptions = {},
): Promise<McpReplay> {
  const server = await startReplay({
    capture: typeof input === 'string' ? readCapture(input, options.chunks) : input,
    cors: true,
    faults: faultsOf(options.faults ?? []),
    ...(options.speed !== undefined && { speed: options.speed }),
    ...(options.port !== undefined && { port: options.port }),
    ...(options.recorder && { recorder: options.recorder }),
  });
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => (closed ??= server.close());
  const onClose = (): void => void close();
  page.once('close', onClose);
  page.context().once('close', onClose);
  return {
    url: server.url,
    origin: server.origin,
    divergences: () => server.divergences(),
    missingBodies: () => server.missingBodies(),
    close: () => {
      page.off('close', onClose);
      page.context().off('close', onClose);
      return close();
    },
  };
}

function readCapture(file: string, chunks: string | undefined): Capture {
  const path = resolve(file);
  const ndjson = chunks === undefined ? undefined : readFileSync(resolve(chunks), 'utf8');
  return loadInput(readFileSync(path), path, ndjson === undefined ? undefined : { chunksNdjson: ndjson });
}

function faultsOf(specs: readonly string[]): Fault[] {
  return specs.map((spec) => {
    const parsed = parseFaultSpec(spec);
    if (!parsed.ok) throw new Error(`mcpReplay: fault "${spec}": ${parsed.error}`);
    return parsed.fault;
  });
}
