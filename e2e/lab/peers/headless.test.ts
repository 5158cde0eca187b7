// Runs in Node (vitest): what `npm start -- --headless` counts as broken for a JS peer, and the line it prints. The real
// runs in Chromium are e2e/start-peers-chromium.spec.ts.
import { describe, expect, it } from 'vitest';
import { judgePeer, type PeerEvidence, peerLine, PEER_NAMES } from './headless';

const clean: PeerEvidence = { client: '2 tools', panel: [], core: [], otherStreams: [], sessionConnections: ['c1'] };
const warning = { rule: 'resume-after-answer', severity: 'warning' };

describe('judging a JS peer of the headless run', () => {
  it('names the four peers npm start takes on its command line', () => {
    expect(PEER_NAMES).toEqual(['use-mcp', 'ai-sdk-mcp', 'server-everything', 'ai-chat']);
  });

  it('breaks a clean peer on any error or warning, and on a core that disagrees with the panel', () => {
    expect(judgePeer('server-everything', clean)).toEqual([]);
    expect(
      judgePeer('server-everything', {
        ...clean,
        panel: [{ rule: 'torn-event-reconnect', severity: 'error' }],
        core: [{ rule: 'torn-event-reconnect', severity: 'error' }],
      }),
    ).toEqual(['unexpected torn-event-reconnect']);
    expect(judgePeer('server-everything', { ...clean, core: [warning] })).toEqual([
      'the core on the export found resume-after-answer',
    ]);
    expect(judgePeer('server-everything', { ...clean, clientError: 'HTTP 500' })).toEqual([
      'the client failed: HTTP 500',
    ]);
  });

  it('holds use-mcp to the finding it is known for and @ai-sdk/mcp to its fallback info', () => {
    expect(judgePeer('use-mcp', { ...clean, panel: [warning, warning], core: [warning, warning] })).toEqual([]);
    expect(judgePeer('use-mcp', clean)).toEqual(['missing resume-after-answer']);
    const fallback = { rule: 'version-fallback', severity: 'info' };
    expect(judgePeer('ai-sdk-mcp', { ...clean, panel: [fallback], core: [fallback] })).toEqual([]);
    expect(judgePeer('ai-sdk-mcp', clean)).toEqual(['missing version-fallback']);
  });

  it('breaks the chat turn when its LLM stream gets any MCP finding, joins a session or is not listed apart', () => {
    const llm = { connectionId: 'c9', path: '/v1/chat/completions' };
    expect(judgePeer('ai-chat', { ...clean, otherStreams: [llm] })).toEqual([]);
    expect(judgePeer('ai-chat', clean)).toEqual(['/v1/chat/completions is not listed under other streams']);
    const info = { rule: 'version-fallback', severity: 'info', connectionId: 'c9' };
    expect(
      judgePeer('ai-chat', {
        ...clean,
        panel: [info],
        core: [info],
        otherStreams: [llm],
        sessionConnections: ['c1', 'c9'],
      }),
    ).toEqual(['the LLM stream got MCP findings: version-fallback', 'the LLM stream was put into an MCP session']);
  });

  it('prints peer, what the client got and the rules, counted', () => {
    const panel = [warning, warning];
    expect(peerLine({ peer: 'use-mcp', ...clean, client: 'ready, 2 tools', panel, core: panel, problems: [] })).toBe(
      '  use-mcp: client ready, 2 tools, findings resume-after-answer (warning) ×2 · as expected',
    );
    expect(peerLine({ peer: 'ai-chat', ...clean, problems: ['missing x', 'unexpected y'] })).toBe(
      '  ai-chat: client 2 tools, findings none · NOT AS EXPECTED: missing x; unexpected y',
    );
  });
});
