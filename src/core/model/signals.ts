// Runs anywhere (pure core): what a connection's SSE events say about whether the stream is MCP, noted while the
// body is read (once per event, kept as a few flags: the data is not kept).
import { isMcpMethod } from '../mcp/methods';
import type { JsonRpcEnvelope } from '../mcp/types';
import type { SseEvent } from '../sse/types';

import type { OtherStreamKind } from './types';

/** Streams that are known not to be MCP, told by their events. */
export type StreamHint = Exclude<OtherStreamKind, 'mcp-inspector'>;

/** What the events of one connection carried, as classification reads it. */
export interface BodySignals {
  /** The first MCP method an event carried. */
  mcpMethod?: string;
  /** The first method an event carried that is not MCP's. */
  otherMethod?: string;
  /** Some event carried a complete JSON-RPC 2.0 message. */
  jsonRpc: boolean;
  /** Some event's data did not parse but reads like JSON-RPC 2.0 (a torn or glued message). */
  tornJsonRpc: boolean;
  /** Some event carried data that is neither JSON-RPC nor like it. */
  foreign: boolean;
  /** What the foreign events look like, when they look like a known non-MCP stream. */
  hint?: StreamHint;
}

export const NO_SIGNALS: Readonly<BodySignals> = { jsonRpc: false, tornJsonRpc: false, foreign: false };

/** How much of an unparsable event's data is searched for a JSON-RPC marker (an 8 MB event is not scanned). */
const PREFIX = 4096;
const JSON_RPC_MARK = /"jsonrpc"\s*:\s*"2\.0"/;
const METHOD_MARK = /"method"\s*:\s*"([^"\\]{1,100})"/;
const ANTHROPIC_TYPES: ReadonlySet<string> = new Set([
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
]);
/** Foreign events looked at for a hint; a stream is told by its first events. */
const HINT_EVENTS = 8;

/** Reads like JSON-RPC 2.0: the `"jsonrpc": "2.0"` member, or an MCP method, near the start of the text. */
export function looksLikeJsonRpc(data: string): boolean {
  const head = data.length > PREFIX ? data.slice(0, PREFIX) : data;
  if (JSON_RPC_MARK.test(head)) return true;
  const method = METHOD_MARK.exec(head)?.[1];
  return method !== undefined && isMcpMethod(method);
}

/** Folds one dispatched event into the connection's signals. */
export class SignalCollector {
  private readonly signals: BodySignals = { ...NO_SIGNALS };
  private foreignSeen = 0;

  /** @param unparsable the data is not JSON at all (only such data can be a torn JSON-RPC message). */
  note(event: SseEvent, envelopes: readonly JsonRpcEnvelope[], unparsable: boolean): void {
    const s = this.signals;
    if (envelopes.length > 0) {
      s.jsonRpc = true;
      if (s.mcpMethod !== undefined && s.otherMethod !== undefined) return;
      for (const { method } of envelopes) {
        if (method === undefined) continue;
        if (isMcpMethod(method)) s.mcpMethod ??= method;
        else s.otherMethod ??= method;
      }
      return;
    }
    // Priming events carry no data; a 2024-11-05 endpoint event carries a URL.
    if (event.data === '' || event.type === 'endpoint') return;
    if (unparsable && looksLikeJsonRpc(event.data)) s.tornJsonRpc = true;
    else {
      s.foreign = true;
      if (s.hint === undefined && this.foreignSeen++ < HINT_EVENTS) {
        const hint = hintOf(event);
        if (hint) s.hint = hint;
      }
    }
  }

  /** A copy: results handed out stay as they were while the collector keeps reading. */
  snapshot(): BodySignals {
    return { ...this.signals };
  }
}

function hintOf(event: SseEvent): StreamHint | undefined {
  if (ANTHROPIC_TYPES.has(event.type)) return 'anthropic-messages';
  if (event.data === '[DONE]' || /^\s*\{[^]*"object"\s*:\s*"chat\.completion/.test(event.data.slice(0, PREFIX)))
    return 'openai-chat';
  return undefined;
}
