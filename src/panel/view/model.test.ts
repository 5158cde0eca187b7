import { describe, expect, it } from 'vitest';
import type { Analysis } from '../../core/analyze';
import { fixtureSessionId } from '../../core/fixtures-dir.fixture';
import { cutAndResume, exampleView } from './fixtures.test-util';
import { parseFilter } from './filter';
import { severityCounts, visibleEventIndexes, visibleFindingIndexes, visibleSessionRows } from './lists';
import { buildPanelView, eventKey, findingKey } from './model';
import { eventSelection, findingSelection, resolveSelection } from './selection';

const torn = exampleView('cut-mid-event');
const clean = exampleView('clean');
const { cut, resume } = cutAndResume(torn);
const tornSession = fixtureSessionId('cut-mid-event')!;
const all = { error: true, warning: true, info: true };

describe('session rows', () => {
  it('summarise each session with its era, counts and worst finding', () => {
    const [row] = torn.sessionRows;
    expect(row?.session.sessionId).toBe(tornSession);
    expect(row?.session.era).toBe('2025-11-25');
    expect(row?.streams).toBe(3); // initialize, the standalone GET, tools/call
    expect(row?.connections).toBe(5);
    expect(row?.events).toBe(torn.analysis.events.length);
    expect(row?.worst).toBe('warning');
    expect(row?.counts.warning).toBeGreaterThanOrEqual(1);
  });

  it('shows no worst finding for the clean control', () => {
    expect(clean.sessionRows.every((r) => r.worst === undefined)).toBe(true);
  });

  it('filter by id, origin or era', () => {
    expect(visibleSessionRows(torn, parseFilter(tornSession.slice(0, 8)))).toHaveLength(1);
    expect(visibleSessionRows(torn, parseFilter('2026-07-28'))).toHaveLength(0);
    expect(visibleSessionRows(torn, parseFilter('127.0.0.1'))).toHaveLength(1);
  });
});

describe('finding targets', () => {
  it('point the torn-event finding at its connection and the time it was cut', () => {
    const i = torn.analysis.findings.findIndex((f) => f.rule === 'torn-event-reconnect');
    const target = torn.findingTargets[i];
    expect(target?.connectionId).toBe(cut);
    expect(target?.sessionKey).toBe(torn.analysis.sessions[0]?.key);
    expect(target?.time).toBe(torn.analysis.findings[i]?.time);
    // The torn bytes never became an event, so there is no event to point at.
    expect(target?.eventIndex).toBeUndefined();
  });

  it('resolve an event by byte offset, else by id, and list it under that event', () => {
    const event = [...torn.analysis.events].find((e) => e.hasId && e.connectionId === resume)!;
    const analysis: Analysis = {
      ...torn.analysis,
      findings: [
        {
          rule: 'replayed-event-duplicate',
          severity: 'warning',
          message: 'by offset',
          connectionId: resume,
          byteOffset: event.start + 1,
        },
        {
          rule: 'replayed-event-duplicate',
          severity: 'warning',
          message: 'by id',
          connectionId: resume,
          eventId: event.lastEventId,
        },
        {
          rule: 'cross-stream-replay',
          severity: 'error',
          message: 'by id only',
          eventId: event.lastEventId,
          streamId: event.streamId,
        },
      ],
    };
    const view = buildPanelView(analysis);
    expect(view.findingTargets.map((t) => t.eventIndex)).toEqual([event.index, event.index, event.index]);
    expect(view.findingsByEvent.get(event.index)).toEqual([0, 1, 2]);
    expect(view.findingTargets[2]?.connectionId).toBe(resume);
    expect(view.findingTargets[2]?.time).toBe(event.time);
  });
});

describe('lists', () => {
  it('keeps events in time order and narrows them by session and text', () => {
    const everything = visibleEventIndexes(torn, undefined, parseFilter(''));
    expect(everything).toEqual([...torn.analysis.events].map((e) => e.index));
    expect(visibleEventIndexes(torn, 'no-such-session', parseFilter(''))).toEqual([]);
    const progress = visibleEventIndexes(torn, undefined, parseFilter('notifications/progress'));
    expect(progress.length).toBeGreaterThan(0);
    expect(
      progress.every((i) => torn.analysis.events.at(i)!.messages.some((m) => m.method === 'notifications/progress')),
    ).toBe(true);
    const notProgress = visibleEventIndexes(torn, undefined, parseFilter('-notifications/progress'));
    expect(progress.length + notProgress.length).toBe(everything.length);
  });

  it('hides findings of a switched-off severity and counts what is there', () => {
    expect(visibleFindingIndexes(torn, undefined, parseFilter(''), all)).toHaveLength(torn.analysis.findings.length);
    const noWarnings = visibleFindingIndexes(torn, undefined, parseFilter(''), { ...all, warning: false });
    expect(noWarnings.every((i) => torn.analysis.findings[i]!.severity !== 'warning')).toBe(true);
    expect(
      visibleFindingIndexes(torn, undefined, parseFilter('torn-event'), all).map(
        (i) => torn.analysis.findings[i]!.rule,
      ),
    ).toEqual(['torn-event-reconnect']);
    const counts = severityCounts(torn, undefined);
    expect(counts.error + counts.warning + counts.info).toBe(torn.analysis.findings.length);
  });
});

describe('selection', () => {
  it('survives re-analysis: an event is found again by connection and byte offset', () => {
    const event = torn.analysis.events.at(3)!;
    const selection = eventSelection(torn, event.index)!;
    const again = exampleView('cut-mid-event');
    expect(resolveSelection(again, selection)).toEqual({
      eventIndex: event.index,
      connectionId: event.connectionId,
      time: event.time,
    });
    expect(again.eventByKey.get(eventKey(event))).toBe(event.index);
  });

  it('resolves a finding to its target, and a vanished one to nothing', () => {
    const i = torn.analysis.findings.findIndex((f) => f.rule === 'torn-event-reconnect');
    const selection = findingSelection(torn, i)!;
    expect(selection).toEqual({ kind: 'finding', key: findingKey(torn.analysis.findings[i]!) });
    expect(resolveSelection(torn, selection)).toMatchObject({ findingIndex: i, connectionId: cut });
    expect(resolveSelection(clean, selection)).toEqual({});
  });
});
