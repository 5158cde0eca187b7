import { describe, expect, it } from 'vitest';
import { findingsFor, rpc, session, sseEvent, Transcript } from '../testing';

const RULE = 'resume-not-honored';

function resume(
  pieces: string[],
  cursor = '2',
  first: string[] = [sseEvent('1', rpc.progress(1, 1)), sseEvent('2', rpc.progress(1, 2))],
) {
  const t = new Transcript();
  const s = session(t, 'S1');
  s({ body: rpc.request(1, 'tools/call'), sse: first, end: 'network-error' });
  s({ headers: { 'last-event-id': cursor }, sse: pieces });
  return t.capture();
}

describe(RULE, () => {
  it('reports a resumed stream that restarts at an id before the cursor', () => {
    const findings = findingsFor(resume([sseEvent('1', rpc.progress(1, 1)), sseEvent('3', rpc.result(1))]), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.message).toContain('at or before the cursor');
  });

  it('reports ids of another epoch', () => {
    const capture = resume([sseEvent('B:1', rpc.result(1))], 'A:2', [
      sseEvent('A:1', rpc.progress(1, 1)),
      sseEvent('A:2', rpc.progress(1, 2)),
    ]);
    expect(findingsFor(capture, RULE)[0]?.message).toContain('another epoch');
  });

  it('reports SDK-style ids of another stream', () => {
    const capture = resume([sseEvent('other_1795967689000_bbbbbbbb', rpc.result(1))], 'mine_1795967688000_aaaaaaaa', [
      sseEvent('mine_1795967688000_aaaaaaaa', rpc.progress(1, 1)),
    ]);
    expect(findingsFor(capture, RULE)[0]?.message).toContain('another stream');
  });

  it('reports the interrupted message re-sent whole under a new id (evicted buffer)', () => {
    const big = rpc.result(1, { content: [{ type: 'text', text: 'x'.repeat(200) }] });
    const torn = `id: 3\ndata: ${JSON.stringify(big).slice(0, 80)}`;
    const capture = resume([sseEvent('9', big)], '2', [
      sseEvent('1', rpc.progress(1, 1)),
      sseEvent('2', rpc.progress(1, 2)),
      torn,
    ]);
    const findings = findingsFor(capture, RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.message).toContain('under a new id 9');
  });

  it('reports a resume that delivers nothing while the request stays unanswered', () => {
    const findings = findingsFor(resume(['id: 7\ndata: \n\n'], '2'), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.message).toContain('never answered');
  });

  it('leaves a resume cut after a silence (an idle timeout in between) to idle-timeout-cut: the server had nothing yet', () => {
    const cut = (silenceMs: number) => {
      const capture = resume([': keep-alive\n\n']);
      const record = capture.connections[1];
      if (record) {
        record.end = 'network-error';
        record.endTime = (record.chunks[0]?.t ?? 0) + silenceMs;
      }
      return findingsFor(capture, RULE);
    };
    expect(cut(2000)).toEqual([]);
    expect(cut(100)).toHaveLength(1);
  });

  it('accepts the SDK behaviour: the torn event replayed whole with its own id, then the rest', () => {
    const torn = `event: message\nid: 3\ndata: ${JSON.stringify(rpc.progress(1, 3)).slice(0, 20)}`;
    const capture = resume([sseEvent('3', rpc.progress(1, 3)), sseEvent('4', rpc.result(1))], '2', [
      sseEvent('1', rpc.progress(1, 1)),
      sseEvent('2', rpc.progress(1, 2)),
      torn,
    ]);
    expect(findingsFor(capture, RULE)).toEqual([]);
  });
});

describe(`${RULE}: progress events sharing the torn event's prefix`, () => {
  it('accepts the torn event replayed under its own id even when later events start the same way', () => {
    const torn = `event: message\nid: 3\ndata: ${JSON.stringify(rpc.progress(1, 3)).slice(0, 40)}`;
    const capture = resume(
      [sseEvent('3', rpc.progress(1, 3)), sseEvent('4', rpc.progress(1, 4)), sseEvent('5', rpc.result(1))],
      '2',
      [sseEvent('1', rpc.progress(1, 1)), sseEvent('2', rpc.progress(1, 2)), torn],
    );
    expect(findingsFor(capture, RULE)).toEqual([]);
  });
});

describe(`${RULE}: a new id that merely starts like the torn one`, () => {
  it('still reports the message re-sent under id 30 after event 3 was torn', () => {
    const big = rpc.result(1, { content: [{ type: 'text', text: 'y'.repeat(200) }] });
    const torn = `id: 3\ndata: ${JSON.stringify(big).slice(0, 80)}`;
    const capture = resume([sseEvent('30', big)], '2', [
      sseEvent('1', rpc.progress(1, 1)),
      sseEvent('2', rpc.progress(1, 2)),
      torn,
    ]);
    expect(findingsFor(capture, RULE)[0]?.message).toContain('under a new id 30');
  });
});

describe(`${RULE}: polling`, () => {
  it('accepts an empty poll when a later poll of the same stream delivers the answer', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(1, 'tools/call'), sse: ['id: 1\nretry: 100\ndata: \n\n'] });
    s({ headers: { 'last-event-id': '1' }, sse: [': keep-alive\n\n'] });
    s({ headers: { 'last-event-id': '1' }, sse: [sseEvent('2', rpc.result(1))] });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});

describe(`${RULE}: the field report's decision boundary`, () => {
  it('leaves a replay that starts at the cursor with the identical event, then continues, to replayed-event-duplicate', () => {
    const capture = resume([sseEvent('2', rpc.progress(1, 2)), sseEvent('3', rpc.result(1))]);
    expect(findingsFor(capture, RULE)).toEqual([]);
    expect(findingsFor(capture, 'replayed-event-duplicate')).toHaveLength(1);
  });

  it("still reports the cursor's id sent again with another payload (the id was reused)", () => {
    const capture = resume([sseEvent('2', rpc.progress(1, 9)), sseEvent('3', rpc.result(1))]);
    expect(findingsFor(capture, RULE)[0]?.message).toContain('at or before the cursor');
  });

  it("judges what follows the cursor's echo: a restart after it is still one", () => {
    const capture = resume([sseEvent('2', rpc.progress(1, 2)), sseEvent('1', rpc.progress(1, 7))]);
    expect(findingsFor(capture, RULE)[0]?.message).toContain('its first id 1 is at or before the cursor');
  });
});

describe(`${RULE}: a torn prefix too short to tell messages apart`, () => {
  // Opaque ids: the resume answers under new ids, the next progress notification first (the torn one is lost).
  const ids = ['a7', 'k2', 'q9'];
  const first = [sseEvent(ids[0], rpc.progress(1, 1)), sseEvent(ids[1], rpc.progress(1, 2))];

  it('is no proof that the interrupted event came back under a new id', () => {
    const torn = `id: ${ids[2]}\ndata: ${JSON.stringify(rpc.progress(1, 3)).slice(0, 60)}`;
    const capture = resume([sseEvent('z1', rpc.progress(1, 4)), sseEvent('z2', rpc.result(1))], ids[1], [
      ...first,
      torn,
    ]);
    expect(findingsFor(capture, RULE)).toEqual([]);
  });

  it('still proves it once the prefix reaches past what the messages share', () => {
    const torn = `id: ${ids[2]}\ndata: ${JSON.stringify(rpc.progress(1, 3)).slice(0, 100)}`;
    const capture = resume([sseEvent('z1', rpc.progress(1, 3)), sseEvent('z2', rpc.result(1))], ids[1], [
      ...first,
      torn,
    ]);
    expect(findingsFor(capture, RULE)[0]?.message).toContain('under a new id z1');
  });
});
