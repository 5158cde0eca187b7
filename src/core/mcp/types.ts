// Runs anywhere (pure core): the MCP protocol's own vocabulary: transport eras and JSON-RPC messages.

/**
 * Protocol eras of the MCP HTTP transports: `2024-11-05` is HTTP+SSE, `2025-03-26` to `2025-11-25` are
 * Streamable HTTP with sessions and `Last-Event-ID` resumption, `2026-07-28` is stateless; `unknown` when the
 * capture never showed the `MCP-Protocol-Version` header or an initialize exchange.
 */
export type Era = '2024-11-05' | '2025-03-26' | '2025-06-18' | '2025-11-25' | '2026-07-28' | 'unknown';

/** A JSON-RPC request id as MCP allows it: a string or a finite number. */
export type JsonRpcId = string | number;

/** One classified JSON-RPC 2.0 message. */
export interface JsonRpcMessage {
  /** `error` also covers an error without an id (a parse error the server could not tie to a request). */
  kind: 'request' | 'notification' | 'response' | 'error';
  /** The request id (absent for notifications and id-less errors). */
  id?: JsonRpcId;
  /** The method (requests and notifications). */
  method?: string;
  /** The parsed message object. */
  value: unknown;
}

/**
 * What the model keeps of one JSON-RPC message: its kind, id and method, without params or result (those are
 * parsed from the event's bytes when asked for: {@link JsonRpcMessage}).
 */
export interface JsonRpcEnvelope {
  kind: JsonRpcMessage['kind'];
  /** The request id (absent for notifications and id-less errors). */
  id?: JsonRpcId;
  /** The method (requests and notifications). */
  method?: string;
  /** For `notifications/cancelled`: the request id its params name (`params.requestId`), when it is an id. */
  cancels?: JsonRpcId;
}
