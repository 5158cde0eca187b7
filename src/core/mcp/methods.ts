// Runs anywhere (pure core): MCP's own vocabulary on the wire: its JSON-RPC method names and its HTTP headers.

/** Methods outside the families below (2024-11-05 to 2026-07-28). */
const METHODS: ReadonlySet<string> = new Set(['initialize', 'ping']);

/**
 * Method families MCP defines (`tools/call`, `notifications/progress`, `server/discover`, ...). A family, not a
 * list: every revision adds methods to these, and no other JSON-RPC protocol seen on the web names its methods so
 * (Ethereum: `eth_call`, LSP: `textDocument/...` and `$/...`).
 */
const FAMILIES: readonly string[] = [
  'notifications/',
  'tools/',
  'resources/',
  'prompts/',
  'completion/',
  'logging/',
  'sampling/',
  'elicitation/',
  'roots/',
  'tasks/',
  'server/',
];

/** Answers so far, by method: asked once per event, of the few methods a capture holds (a Map lookup is cheaper). */
const answers = new Map<string, boolean>();
/** Past this many methods (made-up ones), answers are worked out each time and not kept. */
const MAX_ANSWERS = 4096;

/** True when `method` is one of MCP's methods (or of its method families). */
export function isMcpMethod(method: string): boolean {
  const known = answers.get(method);
  if (known !== undefined) return known;
  const answer = METHODS.has(method) || FAMILIES.some((family) => method.startsWith(family));
  if (answers.size < MAX_ANSWERS) answers.set(method, answer);
  return answer;
}

/** Headers only MCP sends, lower-cased, with how a classification names them. */
export const MCP_HEADERS: readonly (readonly [name: string, label: string])[] = [
  ['mcp-session-id', 'Mcp-Session-Id'],
  ['mcp-protocol-version', 'MCP-Protocol-Version'],
  ['mcp-method', 'Mcp-Method'],
  ['mcp-name', 'Mcp-Name'],
];
