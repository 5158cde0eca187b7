// Node (tests): builds both extension variants once before the e2e run (SKIP_BUILD=1 reuses dist/).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export default function globalSetup(): void {
  if (
    process.env.SKIP_BUILD === '1' &&
    existsSync('dist/chrome/manifest.json') &&
    existsSync('dist/firefox/manifest.json')
  )
    return;
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
}
