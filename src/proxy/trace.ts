// Runs in Node (the fault proxy): what the proxy tells a recorder about each exchange while it runs, as the client
// receives it: the request, the response head the proxy wrote, every body chunk it wrote (after the faults), and
// how the response ended. The CLI's capture recorder and the lab's fixture recorder both listen.
import type { IncomingMessage } from 'node:http';

/** How a response ended, from the proxy's side of the client connection. */
export type TraceEnd = 'complete' | 'failed' | 'aborted';

export interface ExchangeTrace {
  requestBody(body: Uint8Array | undefined): void;
  /**
   * A request fault rewrote the request: these headers (lower-case names) replaced the client's of the same name,
   * and `body` is what went upstream. Recorders that keep the request then keep the rewritten one, as the server saw it.
   */
  rewritten?(headers: Record<string, string>, body: Uint8Array | undefined): void;
  head(status: number, statusText: string, headers: Record<string, string | string[]>): void;
  write(bytes: Uint8Array): void;
  /** The proxy cut the response on purpose: it ends `failed` when the client's connection goes. */
  cut(): void;
  end(how: TraceEnd, error?: string): void;
}

export interface ExchangeRecorder {
  /** A new exchange, as it arrived at the proxy (`proxyUrl` resolves its path). */
  begin(req: IncomingMessage, proxyUrl: string): ExchangeTrace;
}
