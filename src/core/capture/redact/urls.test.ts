import { describe, expect, it } from 'vitest';
import { MORE_URL_CASES, PLAIN_URLS, URL_CASES } from './credentials.fixture';
import { redactedTag } from './hash';
import { redactUrl } from './urls';

describe('URL redaction', () => {
  it.each([...URL_CASES, ...MORE_URL_CASES])('$label: the credential is tagged', ({ url, secret }) => {
    const shown = redactUrl(url);
    expect(shown).not.toContain(secret);
    expect(shown).toContain('‹redacted:');
  });

  it('changes only the credential: the rest of the URL stays byte for byte', () => {
    expect(redactUrl('http://127.0.0.1:47193/callback?code=c0de&state=s1#top')).toBe(
      `http://127.0.0.1:47193/callback?code=${redactedTag('c0de')}&state=s1#top`,
    );
    expect(redactUrl('https://me:pw@example.test:8443/mcp?x=1')).toBe(
      `https://${redactedTag('me:pw')}@example.test:8443/mcp?x=1`,
    );
  });

  it.each(PLAIN_URLS)('%s is kept', (url) => {
    expect(redactUrl(url)).toBe(url);
  });

  it('the same token gets the same tag in every URL; redacting twice changes nothing', () => {
    const a = redactUrl('http://127.0.0.1/sse?token=same');
    const b = redactUrl('http://127.0.0.1/other?x=2&token=same');
    expect(b.endsWith(a.slice(a.indexOf('token=')))).toBe(true);
    expect(redactUrl(a)).toBe(a);
  });
});
