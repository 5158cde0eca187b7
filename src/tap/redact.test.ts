import { describe, expect, it } from 'vitest';
import {
  HEADER_CASES,
  MORE_URL_CASES,
  PLAIN_HEADERS,
  PLAIN_URLS,
  URL_CASES,
} from '../core/capture/redact/credentials.fixture';
import { redactHeaders } from '../core/capture/redact/headers';
import { redactUrl } from '../core/capture/redact/urls';
import { redactSecretHeaders, redactSecretStart, redactSecretUrl } from './redact';

const headers = [...HEADER_CASES, ...PLAIN_HEADERS].map(({ name, value }) => ({ name, value }));
const urls = [...URL_CASES, ...MORE_URL_CASES].map((c) => c.url).concat(PLAIN_URLS);

describe('the tap redacts at the source exactly as the core does', () => {
  it('headers: the same tags for the probe’s credentials, the rest kept', () => {
    const shown = redactSecretHeaders(headers);
    expect(shown).toEqual(redactHeaders(headers));
    // What the tap sent, the bridge keeps as it is, and the other way round.
    expect(redactHeaders(shown)).toEqual(shown);
    expect(redactSecretHeaders(shown)).toEqual(shown);
    for (const { secret } of HEADER_CASES) expect(JSON.stringify(shown)).not.toContain(secret);
  });

  it.each(urls)('URL %s', (url) => {
    expect(redactSecretUrl(url)).toBe(redactUrl(url));
  });

  it('a connection head: its URL, document URL and headers; Mcp-Session-Id and the body stay for the bridge', () => {
    const conn = {
      id: 'c1',
      source: 'eventsource' as const,
      method: 'GET',
      url: URL_CASES[3]!.url,
      documentUrl: MORE_URL_CASES[0]!.url,
      requestHeaders: [
        { name: 'Mcp-Session-Id', value: 's-1' },
        { name: 'Authorization', value: 'Bearer t' },
      ],
      requestBody: '{"access_token":"left-to-the-bridge"}',
      startTime: 1,
    };
    expect(redactSecretStart(conn)).toEqual({
      ...conn,
      url: redactUrl(conn.url),
      documentUrl: redactUrl(conn.documentUrl),
      requestHeaders: redactHeaders(conn.requestHeaders),
    });
  });

  it('does not depend on built-ins a page may replace after the tap loaded', () => {
    const broken = () => {
      throw new Error('patched by the page');
    };
    const patched: [target: object, name: string][] = [
      ...['slice', 'indexOf', 'lastIndexOf', 'toLowerCase', 'charCodeAt'].map((n): [object, string] => [
        String.prototype,
        n,
      ]),
      [RegExp.prototype, 'exec'],
      [RegExp.prototype, 'test'],
      [Array.prototype, 'map'],
      [globalThis, 'decodeURIComponent'],
    ];
    const url = MORE_URL_CASES[3]!.url; // a percent-encoded name: decodeURIComponent is needed
    const shown = asHostilePage(patched, broken, () => ({
      headers: redactSecretHeaders(headers),
      url: redactSecretUrl(url),
    }));
    expect(shown).toEqual({ headers: redactHeaders(headers), url: redactUrl(url) });
    // The patch bites: code that calls the built-ins as the page sees them (the core's) fails under it.
    expect(() => asHostilePage(patched, broken, () => redactUrl(url))).toThrow('patched by the page');
  });
});

/**
 * Runs `run` with each named built-in replaced by `value`, as a page script may do after the tap loaded, and puts
 * them back before returning (so the test's own assertions run on the real ones).
 */
function asHostilePage<T>(patched: [object, string][], value: unknown, run: () => T): T {
  const saved = patched.map(([target, name]) => Object.getOwnPropertyDescriptor(target, name)!);
  patched.forEach(([target, name]) => Object.defineProperty(target, name, { value }));
  try {
    return run();
  } finally {
    patched.forEach(([target, name], i) => Object.defineProperty(target, name, saved[i]!));
  }
}
