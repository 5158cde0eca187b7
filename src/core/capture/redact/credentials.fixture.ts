// Test support: the 24 credentials of issue 9's probe, sent the usual ways, and near-misses that are no secrets.
// Shared by the core's redaction tests and the tap's (src/tap/redact.test.ts), so both sides face the same list.

/** A credential in a header: `secret` must not survive the redaction. */
export interface HeaderCase {
  name: string;
  value: string;
  secret: string;
  /** Sent by the server, not the client. */
  response?: true;
}

export const HEADER_CASES: readonly HeaderCase[] = [
  { name: 'Authorization', value: 'Bearer eyJhbGciOiJIUzI1NiJ9.probe-authorization', secret: 'probe-authorization' },
  { name: 'X-Api-Key', value: 'probe-x-api-key-0001', secret: 'probe-x-api-key-0001' },
  { name: 'X-Auth-Token', value: 'probe-x-auth-token-0002', secret: 'probe-x-auth-token-0002' },
  { name: 'Private-Token', value: 'glpat-probe-private-0003', secret: 'glpat-probe-private-0003' },
  { name: 'x-auth-token', value: 'probe-response-token-0004', secret: 'probe-response-token-0004', response: true },
  { name: 'Authentication', value: 'Token probe-authentication-0005', secret: 'probe-authentication-0005' },
  { name: 'X-Forwarded-Authorization', value: 'Bearer probe-forwarded-0006', secret: 'probe-forwarded-0006' },
  { name: 'Api_Key', value: 'probe-api-underscore-0007', secret: 'probe-api-underscore-0007' },
  { name: 'Ocp-Apim-Subscription-Key', value: 'probe0apim0subscription0008', secret: 'probe0apim0subscription0008' },
  { name: 'X-Session', value: 'probe-x-session-0009', secret: 'probe-x-session-0009' },
  { name: 'X-Hub-Signature', value: 'sha256=probe0hub0signature0010', secret: 'probe0hub0signature0010' },
  {
    name: 'WWW-Authenticate',
    value: 'Basic realm="probe-www-authenticate-0011"',
    secret: 'probe-www-authenticate-0011',
    response: true,
  },
  { name: 'Cookie', value: 'sid=probe-cookie-0012; theme=dark', secret: 'probe-cookie-0012' },
  { name: 'Set-Cookie', value: 'sid=probe-set-cookie-0013; HttpOnly', secret: 'probe-set-cookie-0013', response: true },
];

/** A credential in a URL, as requested or as the document's address. */
export interface UrlCase {
  label: string;
  url: string;
  secret: string;
}

export const URL_CASES: readonly UrlCase[] = [
  {
    label: '?access_token=',
    url: 'http://127.0.0.1:47193/mcp?access_token=probe-access-0014',
    secret: 'probe-access-0014',
  },
  {
    label: '?api_key=',
    url: 'http://127.0.0.1:47193/mcp?x=1&api_key=probe-api-key-0015',
    secret: 'probe-api-key-0015',
  },
  {
    label: '?code= (OAuth callback in the document URL)',
    url: 'http://127.0.0.1:47193/callback?code=probe-code-0016&state=s1',
    secret: 'probe-code-0016',
  },
  {
    label: 'EventSource ?token=',
    url: 'http://127.0.0.1:47193/sse?token=probe-eventsource-0017',
    secret: 'probe-eventsource-0017',
  },
  {
    label: 'user:password@',
    url: 'http://probe-user:probe-password-0018@127.0.0.1:47193/mcp',
    secret: 'probe-password-0018',
  },
];

/** Beyond the 24: what the MCP Inspector and OAuth pages put in their URLs. */
export const MORE_URL_CASES: readonly UrlCase[] = [
  {
    label: '?MCP_INSPECTOR_API_TOKEN= (*_TOKEN)',
    url: 'http://127.0.0.1:6274/?MCP_INSPECTOR_API_TOKEN=probe-inspector-token#tools',
    secret: 'probe-inspector-token',
  },
  {
    label: '#access_token= (implicit flow)',
    url: 'http://127.0.0.1:8080/cb#access_token=probe-fragment-token&token_type=Bearer',
    secret: 'probe-fragment-token',
  },
  {
    label: '#/route?token= (hash routing)',
    url: 'http://127.0.0.1/#/app?token=probe-route-token',
    secret: 'probe-route-token',
  },
  {
    label: 'percent-encoded name',
    url: 'http://127.0.0.1/mcp?access%5Ftoken=probe-encoded-name',
    secret: 'probe-encoded-name',
  },
  { label: '?signature=', url: 'http://127.0.0.1/f?X-Amz-Signature=probe0amz0sig', secret: 'probe0amz0sig' },
];

/** A credential in a body: request JSON, response JSON or the JSON of an SSE event. */
export interface BodyCase {
  label: string;
  body: string;
  secret: string;
}

export const BODY_CASES: readonly BodyCase[] = [
  {
    label: 'an OAuth token in JSON-RPC params',
    body: '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"login","arguments":{"access_token":"probe-params-0019"}}}',
    secret: 'probe-params-0019',
  },
  {
    label: 'a token in _meta',
    body: '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"x","_meta":{"authorization":"Bearer probe-meta-0020"}}}',
    secret: 'probe-meta-0020',
  },
  {
    label: 'tokens in a JSON-RPC response',
    body: '{"jsonrpc":"2.0","id":9,"result":{"refresh_token":"probe-refresh-0021","id_token":"probe-id-0022","client_secret":"probe-client-0022b"}}',
    secret: 'probe-refresh-0021',
  },
  {
    label: 'a token inside an SSE event',
    body: 'event: message\nid: 4\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"data":{"apiKey":"probe-sse-0023","password":"probe-pw"}}}\n\n',
    secret: 'probe-sse-0023',
  },
];

/** The 24th: the session id, an alias in exports (capture.test.ts). */
export const SESSION_ID = 'probe-session-0024-9d0521a9-20a6-477a-a730';

/** Headers that are no credentials: kept as they are. */
export const PLAIN_HEADERS: readonly { name: string; value: string }[] = [
  { name: 'Content-Type', value: 'application/json' },
  { name: 'Accept', value: 'application/json, text/event-stream' },
  { name: 'Last-Event-ID', value: '0_1795967688311_abc' },
  { name: 'MCP-Protocol-Version', value: '2025-11-25' },
  { name: 'Mcp-Method', value: 'tools/call' },
  { name: 'Mcp-Name', value: 'slow-count' },
  { name: 'Mcp-Session-Id', value: 'kept-at-the-source' },
  { name: 'Connection', value: 'keep-alive' },
  { name: 'Keep-Alive', value: 'timeout=5' },
  { name: 'Retry-After', value: '2' },
  { name: 'User-Agent', value: 'Mozilla/5.0' },
  { name: 'X-Note', value: 'the bearer of good news' },
  { name: 'Authorization', value: '' },
];

/** URLs with nothing to hide: kept byte for byte. */
export const PLAIN_URLS: readonly string[] = [
  'http://127.0.0.1:47193/mcp',
  'http://127.0.0.1:47193/messages?sessionId=5f3c&cursor=abc&page=2',
  'http://127.0.0.1/search?keyword=token&tokens=5&codec=h264&monkey=1',
  'http://127.0.0.1/mcp?token=&key',
  'http://127.0.0.1/users/@me/token/abc?x=a@b',
  'http://127.0.0.1/#section-2',
  'not a url at all',
];

/** Bodies with nothing to hide: kept byte for byte. */
export const PLAIN_BODIES: readonly string[] = [
  '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"pt-1","progress":3}}',
  '{"access_token_expires_in":3600,"token_type":"Bearer","max_tokens":512,"tokens":12}',
  '{"password":123456,"token":null,"secret":true}',
  '{"name":"access_token","description":"the field \\"password\\" is secret"}',
  'event: message\nid: 1\ndata: \n\n: keep-alive\n\n',
  'data: {"choices":[{"delta":{"content":"token"}}]}\n\ndata: [DONE]\n\n',
];
