import { describe, expect, it } from 'vitest';
import { redactedTag, shortHash } from './hash';

describe('the short hash a redaction keeps', () => {
  it('is four hex digits, and the same token always gets the same tag', () => {
    expect(shortHash('probe-token')).toMatch(/^[0-9a-f]{4}$/);
    expect(redactedTag('probe-token')).toBe(redactedTag('probe-token'));
    expect(redactedTag('probe-token')).toMatch(/^‹redacted:[0-9a-f]{4}›$/);
  });

  it('is FNV-1a (32 bits) folded to 16: the published test vectors', () => {
    // FNV-1a 32 of "" is 0x811c9dc5 and of "a" 0xe40c292c; folded: hi ^ lo.
    expect(shortHash('')).toBe((0x811c ^ 0x9dc5).toString(16).padStart(4, '0'));
    expect(shortHash('a')).toBe((0xe40c ^ 0x292c).toString(16).padStart(4, '0'));
  });

  it('tells different tokens apart: 100 tokens that differ in one character, no two tags alike', () => {
    const tags = new Set(Array.from({ length: 100 }, (_, i) => redactedTag(`eyJhbGciOiJIUzI1NiJ9.user-${i}`)));
    // 16 bits: among n tokens about n²/131072 pairs collide (0.08 for 100, 7.6 for 1000): the tag tells requests
    // apart, it is no identity. Grouping never relies on it (session ids get collision-free aliases).
    expect(tags.size).toBe(100);
  });
});
