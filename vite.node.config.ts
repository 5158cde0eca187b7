// Node build of the library (src/core/index.ts -> dist/node/index.js) and the CLI (src/cli/main.ts ->
// dist/node/cli.js): ESM for Node 20, unminified, with source maps. Types come from tsconfig.types.json.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const at = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // No public/ copy and no index.html: this is a server-side (SSR) bundle, not a page.
  publicDir: false,
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'dist/node',
    emptyOutDir: true,
    minify: false,
    sourcemap: true,
    rolldownOptions: {
      input: { index: at('src/core/index.ts'), cli: at('src/cli/main.ts') },
      output: {
        format: 'es',
        entryFileNames: '[name].js',
        chunkFileNames: '[name]-[hash].js',
      },
    },
  },
});
