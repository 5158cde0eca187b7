// Runs in Node (vite build): builds the v2 lab page (page/index.html) with the SDK v2 client bundled for the
// browser, into a directory the caller owns (specs may build at the same moment).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export async function buildV2Page(outDir: string): Promise<string> {
  const { build } = await import('vite');
  await build({
    configFile: false,
    root: join(here, 'page'),
    base: './',
    publicDir: false,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 4096 },
  });
  return outDir;
}
