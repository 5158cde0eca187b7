import { describe, expect, it } from 'vitest';
import { rpc, sseEvent, Transcript } from '../../core/guard/transcript';
import { analyze } from '../../core/analyze';
import { captureEnd, layoutTimeline, LINK_LABEL_BAND, ROW_HEIGHT, sessionLabel } from './timeline';
import { exampleView } from './fixtures.test-util';
import { buildPanelView } from './model';
import { linkLabel } from './linkLabel';

describe('the timeline on 2026-07-28 traffic', () => {
  it('links the re-issue of a cut request to the connection that lost it (recorded TS SDK v2 traffic)', () => {
    const view = exampleView('v2-cut-reissued');
    const layout = layoutTimeline(view, undefined, [], captureEnd(view.analysis.connections.map((c) => c.record)));
    const cut = view.analysis.connections.find((c) => c.record.end === 'network-error');
    const again = view.analysis.connections.find((c) => c.reissueOf === cut?.id);
    expect(cut && again).toBeTruthy();
    const rowOf = (id: string | undefined) => layout.rows.findIndex((r) => r.connectionId === id);
    expect(layout.links).toEqual([
      expect.objectContaining({ fromRow: rowOf(cut?.id), toRow: rowOf(again?.id), kind: 'reissue' }),
    ]);
    expect(layout.rows[rowOf(again?.id)]?.height).toBe(ROW_HEIGHT + LINK_LABEL_BAND);
  });

  it('labels stateless groups by era, never by a synthetic key (mixed eras on one endpoint)', () => {
    const view = exampleView('v2-mixed-eras');
    const labels = view.analysis.sessions.map(sessionLabel);
    expect(labels).toContain('stateless  2026-07-28');
    expect(labels.filter((l) => l.startsWith('stateless'))).toHaveLength(1);
  });

  it('draws retries, task follow-ups and listen lanes', () => {
    const t = new Transcript();
    const ERA = '2026-07-28';
    const listen = t.exchange(
      {
        body: rpc.request(1, 'subscriptions/listen', { notifications: {} }),
        sse: [sseEvent(undefined, rpc.notification('notifications/subscriptions/acknowledged'))],
        end: 'open',
      },
      undefined,
      ERA,
    );
    const round = t.exchange(
      {
        body: rpc.request(2, 'tools/call', { name: 'deploy' }),
        json: rpc.result(2, { resultType: 'input_required', requestState: 's' }),
      },
      undefined,
      ERA,
    );
    const retry = t.exchange(
      {
        body: rpc.request(3, 'tools/call', { name: 'deploy', requestState: 's', inputResponses: {} }),
        json: rpc.result(3, { resultType: 'task', taskId: 'T' }),
      },
      undefined,
      ERA,
    );
    const poll = t.exchange(
      { body: rpc.request(4, 'tasks/get', { taskId: 'T' }), json: rpc.result(4) },
      undefined,
      ERA,
    );
    const view = buildPanelView(analyze(t.capture()));
    const layout = layoutTimeline(view, undefined, [], captureEnd(view.analysis.connections.map((c) => c.record)));
    const ids = layout.rows.map((r) => r.connectionId);
    const kinds = layout.links.map((l) => [ids[l.fromRow], ids[l.toRow], l.kind]);
    expect(kinds).toEqual([
      [round, retry, 'retry'],
      [retry, poll, 'task'],
    ]);
    expect(
      layout.lanes.find((l) => l.key === view.analysis.connections.find((c) => c.id === listen)?.streamId)?.label,
    ).toMatch(/^listen \(long-lived\) subscriptions\/listen/);
    expect(linkLabel(undefined, 10, { y: 0 }, 600, 'retry').value).toBe('retry with requestState');
    expect(linkLabel(undefined, 10, { y: 0 }, 600, 'task').prefix).toBe('');
  });
});
