// Runs in Node (vite build): builds the lab's demo page (client/index.html) into dist/lab, with
// the MCP SDK client bundled for the browser. Used by start-lab.ts; never part of the extension.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: join(here, 'client'),
  base: './',
  publicDir: false,
  logLevel: 'warn',
  // use-mcp is a React hook: the page runs it on Preact's compatibility layer.
  resolve: { alias: { react: 'preact/compat', 'react-dom': 'preact/compat' } },
  build: {
    outDir: join(here, '../../dist/lab'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 2048,
  },
});
