import { describe, expect, it } from 'vitest';
import { detectScheme, parseId } from '../ids/scheme';
import { nextEventId } from './next-event-id';

describe('nextEventId', () => {
  it('continues each scheme after the cursor, in the same scheme', () => {
    expect(nextEventId('7')).toBe('8');
    expect(nextEventId('ab12:7')).toBe('ab12:8');
    const sdk = 'ff10d873-a9e7-466b-948d-c2d52d1e0b6f_1764698052123_k3j9x2';
    const next = nextEventId(sdk);
    expect(detectScheme([sdk, next])).toBe('sdk-stream');
    expect(parseId('sdk-stream', next)).toMatchObject({
      streamKey: 'ff10d873-a9e7-466b-948d-c2d52d1e0b6f',
      ms: 1764698052124,
    });
    expect(nextEventId('opaque-cursor')).toBe('opaque-cursor-1');
  });
});
