// Runs in Node (vitest): the built CLI (dist/node/cli.js) that bin/mcp-stream-inspector.js loads, rebuilt when
// it is older than the sources it bundles, so tests that spawn the real bin run what is checked in.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const PACKAGE_ROOT = join(__dirname, '../..');
/** The package's bin, as a user runs it. */
export const BIN = join(PACKAGE_ROOT, 'bin/mcp-stream-inspector.js');
const BUILT = join(PACKAGE_ROOT, 'dist/node/cli.js');
const BUNDLED = ['src/core', 'src/cli', 'src/proxy'];

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

/** `npm test` builds first; when a test runs alone, build here unless dist/node is newer than the sources. */
export function ensureBuiltCli(): void {
  const newest = Math.max(...BUNDLED.map((dir) => newestSource(join(PACKAGE_ROOT, dir))));
  if (existsSync(BUILT) && statSync(BUILT).mtimeMs >= newest) return;
  const build = spawnSync(
    process.execPath,
    [join(PACKAGE_ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.node.config.ts'],
    { cwd: PACKAGE_ROOT, encoding: 'utf8' },
  );
  if (build.status !== 0) throw new Error(`building the CLI failed: ${build.stderr}`);
}
