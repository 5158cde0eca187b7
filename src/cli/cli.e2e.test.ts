// End to end: the installed bin shim running the built CLI (dist/node/cli.js) as a user would.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureDir, fixtureSessionId } from '../core/fixtures-dir.fixture';

const root = join(__dirname, '../..');
const built = join(root, 'dist/node/cli.js');
const example = fixtureDir('cut-mid-event');

/** Newest modification time of the sources the Node build bundles. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

beforeAll(() => {
  // `npm test` builds first; when run alone, build here unless dist/node is newer than the sources.
  const stale =
    !existsSync(built) ||
    statSync(built).mtimeMs < Math.max(newestSource(join(root, 'src/core')), newestSource(join(root, 'src/cli')));
  if (!stale) return;
  const build = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.node.config.ts'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  if (build.status !== 0) throw new Error(`building the CLI failed: ${build.stderr}`);
}, 120_000);

describe('node bin/mcp-stream-inspector.js', () => {
  it('analyzes a HAR to JSON with --fail-on, and reports a bad file on stderr with exit 2', () => {
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, ['bin/mcp-stream-inspector.js', ...args], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });

    const json = cli(
      'analyze',
      '--json',
      '--fail-on',
      'warning',
      join(example, 'capture.har'),
      '--chunks',
      join(example, 'chunks.ndjson'),
    );
    expect(json.stderr).toBe('');
    expect(json.status).toBe(1);
    const doc = JSON.parse(json.stdout);
    expect(doc.findings.map((f: { rule: string }) => f.rule)).toContain('torn-event-reconnect');
    expect(doc.sessions[0].id).toBe('redacted-session-1');
    expect(json.stdout).not.toContain(fixtureSessionId('cut-mid-event'));

    const human = cli('analyze', join(example, 'capture.har'), join(example, 'expected.json'));
    expect(human.status).toBe(2);
    expect(human.stderr).toContain('expected.json: a JSON object that is neither an mcp-stream-inspector capture');
    expect(human.stdout).toMatch(/docs: \/.+\/src\/core\/guard\/rules\/torn-event-reconnect\.md/);
  });
});
