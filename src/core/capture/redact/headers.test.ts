import { describe, expect, it } from 'vitest';
import { HEADER_CASES, PLAIN_HEADERS } from './credentials.fixture';
import { redactedTag } from './hash';
import { redactHeaders, redactHeaderValue } from './headers';

describe('header redaction', () => {
  it.each(HEADER_CASES)('$name: $value is hidden', ({ name, value, secret }) => {
    const shown = redactHeaderValue(name, value);
    expect(shown).not.toContain(secret);
    expect(shown).toMatch(/‹redacted:[0-9a-f]{4}›$/);
  });

  it('keeps the Bearer and Basic scheme readable, in any header, and tags the credential', () => {
    expect(redactHeaderValue('Authorization', 'Bearer t0k3n')).toBe(`Bearer ${redactedTag('t0k3n')}`);
    expect(redactHeaderValue('X-Upstream', 'basic dXNlcjpwdw==')).toBe(`basic ${redactedTag('dXNlcjpwdw==')}`);
    expect(redactHeaderValue('x-mcp-remote-auth', 'Bearer inspector-token')).toBe(
      `Bearer ${redactedTag('inspector-token')}`,
    );
    expect(redactHeaderValue('Cookie', 'a=1; b=2')).toBe(redactedTag('a=1; b=2'));
  });

  it.each(PLAIN_HEADERS)('$name: $value is kept', ({ name, value }) => {
    expect(redactHeaderValue(name, value)).toBe(value);
  });

  it('redacting twice changes nothing, and the masks of older captures stay', () => {
    const once = redactHeaders(HEADER_CASES.map(({ name, value }) => ({ name, value })));
    expect(redactHeaders(once)).toEqual(once);
    expect(redactHeaderValue('Authorization', '[redacted]')).toBe('[redacted]');
    // Only a whole tag is left alone: a value that merely contains one is still a secret.
    const smuggled = `s3cret ${redactedTag('x')}`;
    expect(redactHeaderValue('X-Api-Key', smuggled)).toBe(redactedTag(smuggled));
  });

  it('two requests with the same token look alike, with different tokens they do not', () => {
    const a = redactHeaderValue('Authorization', 'Bearer token-of-alice');
    expect(redactHeaderValue('authorization', 'Bearer token-of-alice')).toBe(a);
    expect(redactHeaderValue('Authorization', 'Bearer token-of-bob')).not.toBe(a);
  });
});
