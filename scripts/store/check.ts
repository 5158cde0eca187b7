// Node (store check, run by `npm run package` after the build): the packages are what the stores accept. Firefox's
// build must pass `web-ext lint` (AMO's own linter) with no error, warning or notice: reviewers read each one; the
// Chrome build's manifest must pass chromeManifestProblems, every permission justified in docs/store/PRIVACY.md.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chromeManifestProblems, justifiedPermissions, type Manifest } from './chrome-manifest';

interface LintMessage {
  code: string;
  message: string;
  file?: string;
  line?: number;
}
interface LintReport {
  errors: LintMessage[];
  warnings: LintMessage[];
  notices: LintMessage[];
}

function firefoxLint(dir: string): string[] {
  const args = ['web-ext', 'lint', '--source-dir', dir, '--output', 'json', '--no-config-discovery'];
  // web-ext exits non-zero on errors; the report is on stdout either way.
  let out: string;
  try {
    out = execFileSync('npx', args, { encoding: 'utf8' });
  } catch (error) {
    const { stdout } = error as { stdout?: unknown };
    out = typeof stdout === 'string' ? stdout : '';
  }
  const report = JSON.parse(out.slice(out.indexOf('{'))) as LintReport;
  return [...report.errors, ...report.warnings, ...report.notices].map(
    (m) => `${dir}: ${m.code} ${m.message}${m.file ? ` (${m.file}${m.line ? `:${m.line}` : ''})` : ''}`,
  );
}

const justified = justifiedPermissions(readFileSync('docs/store/PRIVACY.md', 'utf8'));
const chrome = JSON.parse(readFileSync('dist/chrome/manifest.json', 'utf8')) as Manifest;
const problems = [
  ...firefoxLint('dist/firefox'),
  ...chromeManifestProblems(chrome, justified).map((p) => `dist/chrome/manifest.json: ${p}`),
];
for (const problem of problems) process.stderr.write(`store check: ${problem}\n`);
if (problems.length > 0) process.exitCode = 1;
else process.stdout.write('store check: Firefox build lints clean, Chrome manifest as the Web Store wants it\n');
