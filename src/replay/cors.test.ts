// Runs in Node (vitest): the replay's own CORS answer (the Playwright fixture's pages are of another origin): a
// preflight answered and never matched or recorded, the page's origin allowed on every answer, the recorded
// Access-Control-* headers (the recording page's origin) left out.
import { afterEach, describe, expect, it } from 'vitest';
import type { Capture } from '../core/capture/model';
import { fixtureCapture } from '../core/replay/replay.fixture';
import { CaptureRecorder } from '../proxy/capture-recorder';
import { type ReplayServer, startReplay } from './replay-server';

const PAGE = 'http://127.0.0.1:9';

/** The clean recording, its initialize answer given the recording page's CORS header. */
function withRecordedCors(): { capture: Capture; initialize: string } {
  const capture = fixtureCapture('clean');
  const record = capture.connections.find((c) => c.requestBody?.includes('"initialize"'));
  if (!record?.requestBody) throw new Error('clean: no initialize');
  record.responseHeaders = [
    ...(record.responseHeaders ?? []),
    { name: 'Access-Control-Allow-Origin', value: 'http://recorded.example' },
  ];
  return { capture, initialize: record.requestBody };
}

describe('replay cors', () => {
  let replay: ReplayServer | undefined;
  afterEach(async () => replay?.close());

  it('answers the preflight itself and allows the page origin in place of the recorded one', async () => {
    const { capture, initialize } = withRecordedCors();
    const recorder = new CaptureRecorder({ name: 'test', version: '0' });
    replay = await startReplay({ capture, speed: 0, cors: true, recorder });
    const preflight = await fetch(replay.url, {
      method: 'OPTIONS',
      headers: {
        origin: PAGE,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type, mcp-protocol-version');

    const answer = await fetch(replay.url, {
      method: 'POST',
      headers: { origin: PAGE, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: initialize,
    });
    await answer.text();
    expect(answer.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(answer.headers.get('access-control-expose-headers')).toBe('*');
    expect(answer.headers.get('mcp-session-id')).not.toBeNull();
    expect(replay.divergences()).toEqual([]);
    expect(recorder.capture().connections.map((c) => c.method)).toEqual(['POST']);
  });

  it('leaves the recorded headers alone without cors', async () => {
    const { capture, initialize } = withRecordedCors();
    replay = await startReplay({ capture, speed: 0 });
    const answer = await fetch(replay.url, {
      method: 'POST',
      headers: { origin: PAGE, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: initialize,
    });
    await answer.text();
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://recorded.example');
  });
});
