import { describe, expect, it } from 'vitest';
import { detectScheme, parseId } from './scheme';

describe('event-id schemes', () => {
  it('detects integer, epoch:seq, the SDK example store and opaque ids', () => {
    expect(detectScheme(['1', '2', '10'])).toBe('integer');
    expect(detectScheme(['470359:4', '470359:5', '26ede3:1'])).toBe('epoch-seq');
    expect(detectScheme(['db173ed2-2e82-456d-a2d1-76c55b64efeb_1795967688308_5humigxl'])).toBe('sdk-stream');
    expect(detectScheme(['a', 'b'])).toBe('opaque');
    expect(detectScheme(['1', 'e:2'])).toBe('opaque');
    expect(detectScheme([])).toBe('none');
  });

  it('does not read a timestamp as an epoch', () => {
    expect(detectScheme(['2025-11-29 10:00:59', '2025-11-29 10:01:00'])).toBe('opaque');
  });

  it('parses what each scheme allows to compare', () => {
    expect(parseId('epoch-seq', 'abc:7')).toEqual({ raw: 'abc:7', epoch: 'abc', seq: 7 });
    expect(parseId('integer', '42')).toEqual({ raw: '42', seq: 42 });
    expect(parseId('sdk-stream', 's1_1795967688308_abc')).toEqual({
      raw: 's1_1795967688308_abc',
      streamKey: 's1',
      ms: 1795967688308,
    });
    expect(parseId('opaque', 'x')).toEqual({ raw: 'x' });
  });
});
