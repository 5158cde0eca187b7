// Node (tests): builds both extension variants once before the e2e run (SKIP_BUILD=1 reuses dist/), and dist/node when
// its sources changed (before the spec files load: one imports the built Playwright fixture by package name).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureNodeBuilt } from './fixtures/node-build';

export default function globalSetup(): void {
  ensureNodeBuilt();
  if (
    process.env.SKIP_BUILD === '1' &&
    existsSync('dist/chrome/manifest.json') &&
    existsSync('dist/firefox/manifest.json')
  )
    return;
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
}
