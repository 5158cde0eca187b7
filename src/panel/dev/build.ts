// Dev script (Node): builds the panel as plain pages (harness.html with fixtures, panel.html) into
// dist/panel-dev. Fixtures: every lab recording in fixtures/ (HAR + chunk timeline) and a 100k-event one.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { loadInput } from '../../core/capture/load';
import { serializeCapture } from '../../core/capture/format';
import { syntheticCapture } from '../../core/capture/synthetic.fixture';
import { FIXTURES_DIR, readFixture } from '../../core/fixtures-dir.fixture';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../../..');
export const outDir = join(repo, 'dist/panel-dev');

export async function buildHarness(): Promise<string> {
  await build({
    root: resolve(here, '..'),
    base: './',
    logLevel: 'warn',
    publicDir: false,
    build: {
      outDir,
      emptyOutDir: true,
      // PANEL_PROFILE=1 keeps names and lines, so a CPU profile of the harness names the panel's functions.
      minify: process.env.PANEL_PROFILE !== '1',
      rollupOptions: { input: { harness: join(here, 'harness.html'), panel: resolve(here, '../panel.html') } },
    },
  });
  const fixtures = join(outDir, 'dev/fixtures');
  mkdirSync(fixtures, { recursive: true });
  for (const name of readdirSync(FIXTURES_DIR).filter((d) => existsSync(join(FIXTURES_DIR, d, 'capture.har')))) {
    const { har, ndjson } = readFixture(name);
    const capture = loadInput(new TextEncoder().encode(har), 'capture.har', { chunksNdjson: ndjson });
    writeFileSync(join(fixtures, `${name}.json`), serializeCapture(capture));
  }
  writeFileSync(join(fixtures, 'synthetic-100k.json'), serializeCapture(syntheticCapture(100_000)));
  return outDir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildHarness().then(
    (dir) => process.stdout.write(`built ${dir}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
