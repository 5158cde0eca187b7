import { describe, expect, it } from 'vitest';
import {
  HEADER_CASES,
  MORE_URL_CASES,
  PLAIN_HEADERS,
  PLAIN_URLS,
  URL_CASES,
} from '../core/capture/redact/credentials.fixture';
import { redactHeaders } from '../core/capture/redact/headers';
import { redactUrl } from '../core/capture/redact/url';
import { redactSecretHeaders, redactSecretStart, redactSecretUrl } from './redact';

const headers = [...HEADER_CASES, ...PLAIN_HEADERS].map(({ name, value }) => ({ name, value }));
const urls = [...URL_CASES, ...MORE_URL_CASES].map((c) => c.url).concat(PLAIN_URLS);

describe('the tap redacts at the source exactly as the core does', () => {
  it('headers: the same tags for the probe’s credentials, the rest kept', () => {
    const shown = redactSecretHeaders(headers);
    expect(shown).toEqual(redactHeaders(headers));
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
    const strings = ['slice', 'indexOf', 'lastIndexOf', 'toLowerCase', 'charCodeAt'] as const;
    const saved = {
      strings: strings.map((name) => String.prototype[name]),
      exec: RegExp.prototype.exec,
      test: RegExp.prototype.test,
      map: Array.prototype.map,
      decode: globalThis.decodeURIComponent,
    };
    const restore = () => {
      strings.forEach((name, i) => Object.defineProperty(String.prototype, name, { value: saved.strings[i] }));
      Object.assign(RegExp.prototype, { exec: saved.exec, test: saved.test });
      Array.prototype.map = saved.map;
      globalThis.decodeURIComponent = saved.decode;
    };
    const broken = () => {
      throw new Error('patched by the page');
    };
    const url = MORE_URL_CASES[3]!.url; // a percent-encoded name: decodeURIComponent is needed
    try {
      for (const name of strings) Object.defineProperty(String.prototype, name, { value: broken });
      Object.assign(RegExp.prototype, { exec: broken, test: broken });
      Array.prototype.map = broken;
      globalThis.decodeURIComponent = broken;
      const shownHeaders = redactSecretHeaders(headers);
      const shownUrl = redactSecretUrl(url);
      restore();
      expect(shownHeaders).toEqual(redactHeaders(headers));
      expect(shownUrl).toBe(redactUrl(url));
    } finally {
      restore();
    }
  });
});
