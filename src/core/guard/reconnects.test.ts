// The client's reconnect behaviour per session, on the lab's recordings of the real SDK 1.32 client.
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze';
import { recorded, rewritten } from './recorded.fixture';
import type { ReconnectBehaviour } from './reconnects';

const behaviour = (name: string): Omit<ReconnectBehaviour, 'sessionKey'>[] =>
  analyze(recorded(name)).reconnects.map(({ sessionKey: _key, ...rest }) => rest);

describe('reconnect behaviour (Analysis.reconnects)', () => {
  it('the SDK client resumes a cut POST stream after the server retry: (cut-mid-event, server-close-resumed)', () => {
    for (const name of ['cut-mid-event', 'server-close-resumed'])
      expect(behaviour(name), name).toEqual([
        { resumesPostStreams: 'yes', honoursRetry: 'yes', deduplicates: 'unknown' },
      ]);
  });

  it('a client that never reconnects: no and no (server-close-not-resumed)', () => {
    expect(behaviour('server-close-not-resumed')).toEqual([
      { resumesPostStreams: 'no', honoursRetry: 'no', deduplicates: 'unknown' },
    ]);
  });

  it('unknown where nothing asked for a reconnect (clean), and no entry for stateless sessions (v2-clean)', () => {
    expect(behaviour('clean')).toEqual([
      { resumesPostStreams: 'unknown', honoursRetry: 'unknown', deduplicates: 'unknown' },
    ]);
    expect(behaviour('v2-clean')).toEqual([]);
  });

  it('a resume sooner than retry: is not honouring it', () => {
    const hasty = rewritten(recorded('server-close-resumed'), (copy) => {
      const resume = copy.connections.find((r) =>
        r.requestHeaders.some((h) => h.name.toLowerCase() === 'last-event-id'),
      );
      const closed = copy.connections.find((r) => r.method === 'POST' && r.requestBody?.includes('stream_progress'));
      if (!resume || !closed?.endTime) throw new Error('recording without its resume');
      const shift = closed.endTime + 5 - resume.startTime;
      resume.startTime += shift;
      resume.chunks = resume.chunks.map((c) => ({ ...c, t: c.t + shift }));
    });
    expect(analyze(hasty).reconnects[0]?.honoursRetry).toBe('no');
  });
});
