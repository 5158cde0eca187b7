import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chromeManifestProblems, justifiedPermissions, SUMMARY_MAX, type Manifest } from './chrome-manifest';
import manifest from '../../manifest.json' with { type: 'json' };

const CLEAN: Manifest = {
  manifest_version: 3,
  name: 'MCP Stream Inspector',
  version: '0.1.0',
  description: 'A DevTools panel.',
  icons: { '128': 'icons/icon-128.png' },
  background: { service_worker: 'sw.js', type: 'module' },
  permissions: ['storage'],
  host_permissions: ['<all_urls>'],
  message_serialization: 'structured_clone',
  minimum_chrome_version: '148',
};
const JUSTIFIED = ['storage', '<all_urls>'];

describe('chromeManifestProblems', () => {
  it('finds none in a manifest the store takes', () => {
    expect(chromeManifestProblems(CLEAN, JUSTIFIED)).toEqual([]);
  });

  it('names the keys the store refuses or Chrome does not know', () => {
    const problems = chromeManifestProblems(
      { ...CLEAN, key: 'MIIB', update_url: 'https://example.org/u.xml', browser_specific_settings: { gecko: {} } },
      JUSTIFIED,
    );
    expect(problems.map((p) => p.split(':')[0])).toEqual(['key', 'update_url', 'browser_specific_settings']);
  });

  it('wants Chrome 148 when messages are structured clones, a summary within the limit, a 128 icon', () => {
    const { minimum_chrome_version: _, icons: __, ...rest } = CLEAN;
    const problems = chromeManifestProblems({ ...rest, description: 'x'.repeat(SUMMARY_MAX + 1) }, JUSTIFIED);
    expect(problems).toEqual([
      `description: the store's summary, 1 to ${SUMMARY_MAX} characters`,
      'icons: the store needs a 128x128 icon',
      expect.stringMatching(/^minimum_chrome_version: structured_clone messaging needs Chrome 148/),
    ]);
  });

  it('refuses a permission or host pattern the listing does not justify, content-script matches included', () => {
    const problems = chromeManifestProblems(
      { ...CLEAN, permissions: ['storage', 'tabs'], content_scripts: [{ matches: ['https://*/*'] }] },
      JUSTIFIED,
    );
    expect(problems).toEqual([
      'tabs: requested, but not justified for the store',
      'https://*/*: requested, but not justified for the store',
    ]);
  });

  it('reads the justified names from a Markdown table, and the source manifest summary fits', () => {
    expect(
      justifiedPermissions('| name | why |\n| --- | --- |\n| `storage` | settings |\n| `<all_urls>` | tap |\n'),
    ).toEqual(['storage', '<all_urls>']);
    expect(manifest.description.length).toBeLessThanOrEqual(SUMMARY_MAX);
  });

  it("is the listing's short description (docs/store/listing.md)", () => {
    const listing = readFileSync('docs/store/listing.md', 'utf8');
    const short = /<!-- short-description -->\s*([^]*?)\s*<!-- \/short-description -->/.exec(listing)?.[1];
    expect(short).toBe(manifest.description);
  });
});
