import { describe, expect, it } from 'vitest';
import { isMcpMethod } from './methods';

describe('isMcpMethod', () => {
  it("knows MCP's methods and method families, of every revision", () => {
    for (const method of [
      'initialize',
      'ping',
      'tools/call',
      'notifications/progress',
      'resources/templates/list',
      'elicitation/create',
      'tasks/get',
      'server/discover',
    ])
      expect(isMcpMethod(method), method).toBe(true);
  });

  it('refuses the methods of other JSON-RPC protocols and look-alikes', () => {
    for (const method of ['eth_subscribe', 'textDocument/didOpen', '$/cancelRequest', 'initialized', 'tool/call', ''])
      expect(isMcpMethod(method), method).toBe(false);
  });
});
