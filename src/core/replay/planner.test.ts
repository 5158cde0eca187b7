import { describe, expect, it } from 'vitest';
import { importHar } from '../capture/har';
import { devtoolsStyle } from '../devtools-har.fixture';
import { ReplayPlanner } from './planner';
import { fixtureCapture, findRecord, isCall, playedText, recordedText, requestOf } from './replay.fixture';

const ORIGIN = 'http://127.0.0.1:4100';

describe('replay planner: the same client again', () => {
  for (const name of ['cut-mid-event', 'legacy-sse', 'clean', 'v2-clean', 'py-clean', 'py-2025-resume']) {
    it(`${name}: every request matches its recorded exchange, every chunk is the recorded one, no divergence`, () => {
      const capture = fixtureCapture(name);
      const planner = new ReplayPlanner(capture, { origin: ORIGIN });
      for (const record of capture.connections) {
        const answer = planner.answer(requestOf(record));
        expect(answer.kind === 'play' && answer.exchangeId).toBe(record.id);
        expect(playedText(answer)).toEqual(recordedText(record));
        expect(answer.kind === 'play' && answer.end).toBe(record.end);
      }
      expect(planner.divergences).toEqual([]);
    });
  }
});

describe('replay planner: ids follow the live client', () => {
  it('a tools/call under another id and token gets its progress and result under them, cut at the same event byte', () => {
    const capture = fixtureCapture('cut-mid-event');
    const planner = new ReplayPlanner(capture, { origin: ORIGIN });
    const call = findRecord(capture, isCall('stream_progress'));
    for (const record of capture.connections) {
      if (record === call) break;
      planner.answer(requestOf(record));
    }
    const body = (call.requestBody ?? '')
      .replace('"progressToken":1', '"progressToken":"t-77"')
      .replace('"id":1', '"id":77');
    const played = playedText(planner.answer(requestOf(call, body)));
    const recorded = recordedText(call);
    expect(played).toHaveLength(recorded.length);
    const text = played.join('');
    expect(text).toContain('"progressToken":"t-77"');
    expect(text).not.toContain('"progressToken":1,');
    // The torn tail (after the last blank line) is the recorded one: the cut falls at the same byte of its event.
    const tail = (s: string): string => s.slice(s.lastIndexOf('\n\n') + 2);
    expect(tail(text)).toBe(tail(recorded.join('')).replace('"progressToken":1', '"progressToken":"t-77"'));
    // The resume's replayed events follow the new token too; the last, the result, carries id 77.
    const resume = findRecord(
      capture,
      (r) => r.method === 'GET' && r.requestHeaders.some((h) => /last-event-id/i.test(h.name)),
    );
    const resumed = playedText(planner.answer(requestOf(resume))).join('');
    expect(resumed).toContain('"id":77');
    expect(resumed).not.toMatch(/"id":1[,}]/);
    expect(planner.divergences).toEqual([]);
  });

  it("a 2024-11-05 endpoint event's absolute URL gets the replay's origin", () => {
    const capture = fixtureCapture('legacy-sse');
    const get = capture.connections[0];
    if (!get) throw new Error('no GET');
    const chunk = get.chunks[0];
    if (!chunk) throw new Error('no chunk');
    const text = Buffer.from(chunk.bytes)
      .toString('utf8')
      .replace('data: /messages', 'data: http://127.0.0.1:47193/messages');
    chunk.bytes = new TextEncoder().encode(text);
    const planner = new ReplayPlanner(capture, { origin: ORIGIN });
    const played = playedText(planner.answer(requestOf(get)))[0];
    expect(played).toContain(`data: ${ORIGIN}/messages?sessionId=`);
    expect(played).not.toContain('47193');
  });
});

describe('replay planner: causality', () => {
  it('answers on a 2024-11-05 GET stream wait for the POSTs they answer', () => {
    const capture = fixtureCapture('legacy-sse');
    const planner = new ReplayPlanner(capture, { origin: ORIGIN });
    const answer = planner.answer(requestOf(capture.connections[0] ?? findRecord(capture, () => false)));
    if (answer.kind !== 'play') throw new Error('not played');
    expect(answer.chunks[0]?.waitsFor).toEqual([]); // the endpoint event
    const call = findRecord(capture, isCall('stream_progress'));
    expect(answer.chunks.some((c) => c.waitsFor.some((g) => g.exchangeId === call.id))).toBe(true);
  });

  it("a result that followed the client's answer to an elicitation waits for that answer", () => {
    const capture = fixtureCapture('clean');
    const planner = new ReplayPlanner(capture, { origin: ORIGIN });
    const ask = findRecord(capture, isCall('ask_user'));
    const reply = findRecord(capture, (r) => r.requestBody?.includes('"result"') === true);
    for (const record of capture.connections) {
      if (record === ask) break;
      planner.answer(requestOf(record));
    }
    const answer = planner.answer(requestOf(ask));
    if (answer.kind !== 'play') throw new Error('not played');
    expect(answer.chunks.map((c) => c.waitsFor.map((g) => g.exchangeId))).toEqual([[], [], [reply.id]]);
  });
});

describe('replay planner: timing', () => {
  it('a body its Content-Length declared whole goes with its head, though the recorder saw it ms later', () => {
    const capture = fixtureCapture('orphaned-elicitation');
    const planner = new ReplayPlanner(capture, { origin: ORIGIN });
    const refused = capture.connections.filter((r) => r.status === 404);
    expect(refused.length).toBeGreaterThan(0);
    for (const record of capture.connections) {
      const answer = planner.answer(requestOf(record));
      if (!refused.includes(record)) continue;
      if (answer.kind !== 'play') throw new Error('not played');
      const [chunk] = record.chunks;
      // The lab proxy stamped the body 3-11 ms after the head; the origin wrote both with res.end().
      expect((chunk?.t ?? 0) - (record.responseTime ?? 0)).toBeGreaterThan(2);
      expect(answer.chunks.map((c) => c.atMs)).toEqual([0]);
      expect(answer.endAtMs).toBe(Math.max(0, (record.endTime ?? 0) - (chunk?.t ?? 0)));
    }
  });

  it("a stream the server ended after the session's DELETE ends only after the live DELETE", () => {
    const capture = fixtureCapture('py-2025-resume');
    const planner = new ReplayPlanner(capture, { origin: ORIGIN });
    const remove = findRecord(capture, (r) => r.method === 'DELETE');
    const ended = capture.connections.filter((r) => r.method === 'GET' && (r.endTime ?? 0) > remove.startTime);
    expect(ended.length).toBe(2); // the standalone GET and the resume
    for (const record of capture.connections) {
      const answer = planner.answer(requestOf(record));
      if (answer.kind !== 'play') throw new Error('not played');
      const gates = answer.endWaitsFor.map((g) => [g.exchangeId, g.afterMs]);
      expect(gates).toEqual(ended.includes(record) ? [[remove.id, (record.endTime ?? 0) - remove.startTime]] : []);
    }
  });

  it('a streamed body keeps its recorded times after the head', () => {
    const capture = fixtureCapture('nginx-slow-call-cut');
    const planner = new ReplayPlanner(capture, { origin: ORIGIN });
    const call = findRecord(capture, isCall('stream_progress'));
    for (const record of capture.connections) {
      const answer = planner.answer(requestOf(record));
      if (record !== call) continue;
      if (answer.kind !== 'play') throw new Error('not played');
      const head = record.responseTime ?? 0;
      expect(answer.chunks.map((c) => c.atMs)).toEqual(record.chunks.map((c) => Math.max(0, c.t - head)));
      // nginx cut it after 2 s of silence: the end's time is the cut's.
      expect(answer.end).toBe('network-error');
      expect(answer.endAtMs).toBeGreaterThan(1900);
    }
  });
});

describe('replay planner: divergences and the policy', () => {
  it('a 2026-07-28 request re-issued after the recorded cut is refused 400 with a JSON-RPC error under its id', () => {
    const capture = fixtureCapture('v2-cut-not-reissued');
    const planner = new ReplayPlanner(capture, { origin: ORIGIN });
    for (const record of capture.connections) planner.answer(requestOf(record));
    const call = findRecord(capture, isCall('stream_progress'));
    const again = planner.answer(requestOf(call, (call.requestBody ?? '').replace(/"id":(\d+)/, '"id":9')));
    expect(again.kind).toBe('refuse');
    if (again.kind !== 'refuse') return;
    expect(again.status).toBe(400);
    expect(JSON.parse(again.body)).toMatchObject({ id: 9, error: { code: -32600 } });
    expect(planner.divergences.map((d) => [d.kind, d.answer])).toEqual([['reissued-request', 'refused']]);
  });

  it('a request the recorded client sent again is answered again when the recording answered it whole', () => {
    const capture = fixtureCapture('v2-clean');
    const planner = new ReplayPlanner(capture, { origin: ORIGIN });
    for (const record of capture.connections) planner.answer(requestOf(record));
    const call = findRecord(capture, isCall('stream_progress'));
    const again = planner.answer(requestOf(call, (call.requestBody ?? '').replace(/"id":(\d+)/, '"id":41')));
    expect(again.kind).toBe('play');
    expect(playedText(again).join('')).toContain('"id":41');
    expect(planner.divergences.map((d) => [d.kind, d.answer])).toEqual([['reissued-request', 'played']]);
  });

  it('a resume from another cursor continues the recorded stream after that event', () => {
    const capture = fixtureCapture('cut-mid-event');
    const planner = new ReplayPlanner(capture, { origin: ORIGIN });
    const call = findRecord(capture, isCall('stream_progress'));
    for (const record of capture.connections) {
      planner.answer(requestOf(record));
      if (record === call) break;
    }
    const priming = /^id: (.+)$/m.exec(recordedText(call).join(''))?.[1] ?? '';
    const resume = findRecord(capture, (r) => r.requestHeaders.some((h) => /last-event-id/i.test(h.name)));
    const headers = resume.requestHeaders.map((h) => (/last-event-id/i.test(h.name) ? { ...h, value: priming } : h));
    const answer = planner.answer({ ...requestOf(resume), headers });
    const recorded = recordedText(call).join('');
    expect(playedText(answer).join('')).toBe(recorded.slice(recorded.indexOf('\n\n') + 2));
    expect(planner.divergences.map((d) => [d.kind, d.answer])).toEqual([['other-cursor', 'continued']]);
  });

  it('a resume where the recorded client gave up, with nothing recorded after its cursor, is refused 400', () => {
    const capture = fixtureCapture('server-close-not-resumed');
    const planner = new ReplayPlanner(capture, { origin: ORIGIN });
    for (const record of capture.connections) planner.answer(requestOf(record));
    const call = findRecord(capture, isCall('stream_progress'));
    const ids = [
      ...recordedText(call)
        .join('')
        .matchAll(/^id: (.+)$/gm),
    ].map((m) => m[1] ?? '');
    const get = findRecord(capture, (r) => r.method === 'GET');
    const answer = planner.answer({
      ...requestOf(get),
      headers: [...get.requestHeaders, { name: 'Last-Event-ID', value: ids.at(-1) ?? '' }],
    });
    expect(answer.kind === 'refuse' && answer.status).toBe(400);
    expect(planner.divergences.map((d) => d.kind)).toEqual(['resumed-where-recorded-gave-up']);
  });

  it('an unknown session gets 404, a notification never recorded 202, a GET stream never recorded 405', () => {
    const capture = fixtureCapture('v2-clean');
    const planner = new ReplayPlanner(capture, { origin: ORIGIN });
    const post = (body: object, headers: { name: string; value: string }[] = []) =>
      planner.answer({ method: 'POST', path: '/mcp', headers, body: JSON.stringify({ jsonrpc: '2.0', ...body }) });
    const stranger = post({ id: 1, method: 'tools/list' }, [{ name: 'Mcp-Session-Id', value: 'never-issued' }]);
    expect(stranger.kind === 'refuse' && stranger.status).toBe(404);
    const note = post({ method: 'notifications/roots/list_changed' });
    expect(note.kind === 'refuse' && note.status).toBe(202);
    const get = planner.answer({ method: 'GET', path: '/mcp', headers: [] });
    expect(get.kind === 'refuse' && get.status).toBe(405);
    const unknown = post({ id: 5, method: 'prompts/list' });
    expect(unknown.kind === 'refuse' && [unknown.status, JSON.parse(unknown.body).id]).toEqual([400, 5]);
    expect(planner.divergences.map((d) => d.kind)).toEqual([
      'unknown-session',
      'unrecorded-notification',
      'unrecorded-stream',
      'unrecorded-request',
    ]);
  });

  it('a request of a recorded method with other params is played in order and said to differ', () => {
    const capture = fixtureCapture('v2-clean');
    const planner = new ReplayPlanner(capture, { origin: ORIGIN });
    const call = findRecord(capture, isCall('stream_progress'));
    const answer = planner.answer(requestOf(call, (call.requestBody ?? '').replace(/"count":\d+/, '"count":99')));
    expect(answer.kind === 'play' && answer.exchangeId).toBe(call.id);
    expect(planner.divergences.map((d) => [d.kind, d.answer])).toEqual([['other-params', 'played']]);
  });
});

describe('replay planner: a DevTools HAR that lost the bodies of cut streams', () => {
  it('names what is missing and plays the head and end of those, the rest whole', () => {
    const capture = importHar(devtoolsStyle());
    const planner = new ReplayPlanner(capture, { origin: ORIGIN });
    const missing = planner.script.missingBodies.map((e) => e.id);
    expect(missing.length).toBeGreaterThan(0);
    for (const record of capture.connections) {
      const answer = planner.answer(requestOf(record));
      expect(answer.kind === 'play' && [answer.exchangeId, answer.status]).toEqual([record.id, record.status]);
      expect(playedText(answer)).toEqual(missing.includes(record.id) ? [] : recordedText(record));
    }
    expect(planner.divergences).toEqual([]);
  });
});
