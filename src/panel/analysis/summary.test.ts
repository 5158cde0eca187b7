import { describe, expect, it } from 'vitest';
import { analyze } from '../../core/analyze';
import { Transcript } from '../../core/guard/transcript';
import {
  addMcpSession,
  aiChatCapture,
  ANTHROPIC_URL,
  OPENAI_URL,
  openAiStream,
  PAGE,
} from '../../core/model/other-streams.fixture';
import { buildPanelView } from '../view/model';
import { MAX_OTHER_STREAMS_SENT } from './messages';
import { otherStreamItems, sessionRowData } from './summary';
import { recorded } from '../../core/guard/recorded.fixture';

describe('the other streams the worker sends the UI thread', () => {
  it('lists each stream that is not MCP with what its row shows, and no payload', () => {
    const { items, leftOff } = otherStreamItems(buildPanelView(analyze(aiChatCapture())));
    expect(items).toEqual([
      {
        connectionId: 'c4',
        method: 'POST',
        url: OPENAI_URL,
        status: 200,
        events: 6,
        bytes: expect.any(Number) as number,
        kind: 'openai-chat',
        reason: expect.stringContaining('not JSON-RPC') as string,
      },
      expect.objectContaining({
        url: ANTHROPIC_URL,
        method: 'POST',
        status: 200,
        events: 8,
        kind: 'anthropic-messages',
      }),
    ]);
    expect(items[0]!.bytes).toBe(openAiStream().join('').length);
    expect(leftOff).toBe(0);
  });

  it('sends at most MAX_OTHER_STREAMS_SENT and counts the rest', () => {
    const t = new Transcript(PAGE);
    const n = MAX_OTHER_STREAMS_SENT + 7;
    for (let i = 0; i < n; i++) t.exchange({ method: 'POST', url: `${OPENAI_URL}?n=${i}`, sse: openAiStream() });
    const { items, leftOff } = otherStreamItems(buildPanelView(analyze(t.capture())));
    expect(items).toHaveLength(MAX_OTHER_STREAMS_SENT);
    expect(leftOff).toBe(7);
    expect(items[0]!.url).toBe(`${OPENAI_URL}?n=0`);
  });

  it('lists nothing when the capture is all MCP', () => {
    const t = new Transcript(PAGE);
    addMcpSession(t);
    expect(otherStreamItems(buildPanelView(analyze(t.capture())))).toEqual({ items: [], leftOff: 0 });
  });
});

describe('the session rows the worker sends the UI thread', () => {
  it("carry the client's reconnect behaviour as one line (decode.test.ts round-trips it)", () => {
    const view = buildPanelView(analyze(recorded('server-close-not-resumed')));
    const rows = view.sessionRows.map(sessionRowData);
    expect(rows.map((r) => r.reconnect)).toEqual([
      'resumes POST streams: no · honours retry: no · de-duplicates: unknown',
    ]);
  });

  it('leave it out for a stateless session', () => {
    const rows = buildPanelView(analyze(recorded('v2-clean'))).sessionRows.map(sessionRowData);
    expect(rows.map((r) => r.reconnect)).toEqual([undefined]);
  });

  it('label an era change inside one session (probed 2026-07-28, fell back)', () => {
    const rows = buildPanelView(analyze(recorded('probe-fallback'))).sessionRows.map(sessionRowData);
    expect(rows.map((r) => r.era)).toEqual(['2025-11-25 (probed 2026-07-28)']);
  });
});
