import { describe, expect, it } from 'vitest';
import manifest from '../../manifest.json' with { type: 'json' };
import { BRIDGE_SCRIPT, TAP_SCRIPT, normalizeSites, recordsOn, sameRegistration, siteOf, siteScripts } from './sites';

describe('siteOf', () => {
  it('reads a page URL or typed text as scheme and host', () => {
    expect(siteOf('http://127.0.0.1:8123/mcp?x=1')).toBe('http://127.0.0.1');
    expect(siteOf('https://Example.COM/a')).toBe('https://example.com');
    expect(siteOf('example.com')).toBe('https://example.com');
    expect(siteOf('  localhost:3000/mcp ')).toBe('http://localhost');
    expect(siteOf('127.0.0.1:8080')).toBe('http://127.0.0.1');
    expect(siteOf('app.localhost')).toBe('http://app.localhost');
    expect(siteOf('https://localhost:8443/')).toBe('https://localhost');
    expect(siteOf('localhost.example.com')).toBe('https://localhost.example.com');
    expect(siteOf('http://[::1]:8080/')).toBe('http://[::1]');
  });

  it('refuses what no site of the tap can be: other schemes, empty text, junk', () => {
    for (const text of [
      '',
      '   ',
      'about:blank',
      'chrome://extensions',
      'file:///tmp/x.html',
      'data:text/html,x',
      'ws://a.b',
      'http://',
      '*.example.com',
      'exa mple.com',
    ])
      expect(siteOf(text), text).toBeUndefined();
  });
});

describe('normalizeSites', () => {
  it('keeps valid sites once each, in order, and ignores anything else stored', () => {
    expect(normalizeSites(['https://b.org/x', 'a.com', 'https://b.org', 42, null, 'about:blank'])).toEqual([
      'https://b.org',
      'https://a.com',
    ]);
    expect(normalizeSites('https://a.com')).toEqual([]);
    expect(normalizeSites(undefined)).toEqual([]);
  });
});

describe('siteScripts', () => {
  it('registers the tap in the page world and the bridge isolated, on every site by default', () => {
    const scripts = siteScripts('every-site', ['https://a.com']);
    expect(scripts.map((s) => [s.id, s.js, s.world, s.matches])).toEqual([
      [TAP_SCRIPT.id, ['src/tap/index.js'], 'MAIN', ['<all_urls>']],
      [BRIDGE_SCRIPT.id, ['src/bridge/index.js'], 'ISOLATED', ['<all_urls>']],
    ]);
    for (const s of scripts)
      expect(s).toMatchObject({ runAt: 'document_start', allFrames: true, matchOriginAsFallback: true });
  });

  it('registers on the picked sites only, every port and path of each, and nothing when none is picked', () => {
    const scripts = siteScripts('picked-sites', ['http://127.0.0.1', 'https://a.com']);
    expect(scripts.map((s) => s.matches)).toEqual([
      ['http://127.0.0.1/*', 'https://a.com/*'],
      ['http://127.0.0.1/*', 'https://a.com/*'],
    ]);
    expect(siteScripts('picked-sites', [])).toEqual([]);
  });

  it('names the files manifest.json has built as content scripts', () => {
    const built = manifest.content_scripts.flatMap((c) => c.js.map((js) => js.replace(/\.ts$/, '.js')));
    expect(built.sort()).toEqual([BRIDGE_SCRIPT.js, TAP_SCRIPT.js].sort());
  });
});

describe('recordsOn', () => {
  it('is true everywhere by default, and on picked sites only (any port) otherwise', () => {
    expect(recordsOn('every-site', [], 'http://localhost:1/')).toBe(true);
    expect(recordsOn('picked-sites', ['http://127.0.0.1'], 'http://127.0.0.1:9999/page')).toBe(true);
    expect(recordsOn('picked-sites', ['http://127.0.0.1'], 'http://localhost:9999/page')).toBe(false);
    expect(recordsOn('picked-sites', ['http://127.0.0.1'], 'https://127.0.0.1/page')).toBe(false);
    expect(recordsOn('picked-sites', ['http://127.0.0.1'], 'about:blank')).toBe(false);
  });
});

describe('sameRegistration', () => {
  it("takes the browser's answer (extra fields, any order) as the same registration, and a change of matches as not", () => {
    const wanted = siteScripts('picked-sites', ['https://a.com']);
    // As Firefox ESR 153 answers getRegisteredContentScripts (Chromium 156 the same, without cssOrigin).
    const registered = [...wanted].reverse().map((s) => ({ ...s, cssOrigin: 'author' }));
    expect(sameRegistration(registered, wanted)).toBe(true);
    expect(sameRegistration(registered, siteScripts('picked-sites', ['https://a.com', 'https://b.com']))).toBe(false);
    expect(sameRegistration(registered, siteScripts('every-site', []))).toBe(false);
    expect(sameRegistration([], siteScripts('picked-sites', []))).toBe(true);
    expect(
      sameRegistration(
        registered.map((s) => ({ ...s, allFrames: false })),
        wanted,
      ),
    ).toBe(false);
  });
});
