// Node build of the library (src/core/index.ts -> dist/node/index.js), the CLI (src/cli/main.ts -> dist/node/cli.js),
// the Playwright fixture (src/playwright/index.ts -> dist/node/playwright.js) and the client guard
// (src/client-guard/index.ts -> dist/node/client-guard.js, plain ESM that bundlers take for browsers too) and the
// server event store (src/event-store/index.ts -> dist/node/event-store.js, src/event-store/redis.ts ->
// dist/node/event-store-redis.js) and the replay server (src/replay/index.ts -> dist/node/replay.js): ESM for Node 20, unminified, with source maps. Types come from tsconfig.types.json.
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin, type Rolldown } from 'vite';
import pkg from './package.json' with { type: 'json' };

const at = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

const INIT_SCRIPT = 'virtual:mcp-stream-inspector/init-script';

/**
 * The fixture's init script: the tap and its receiver (src/playwright/page/init-script.ts) built on their own into one
 * IIFE, as the extension's build makes the tap a standalone script, and handed to the fixture as a string.
 */
function initScript(): Plugin {
  return {
    name: 'mcp-stream-inspector:init-script',
    resolveId: (id) => (id === INIT_SCRIPT ? `\0${INIT_SCRIPT}` : undefined),
    async load(id) {
      if (id !== `\0${INIT_SCRIPT}`) return undefined;
      const output = await build({
        configFile: false,
        publicDir: false,
        logLevel: 'warn',
        build: {
          write: false,
          target: 'es2022',
          minify: true,
          rolldownOptions: { input: at('src/playwright/page/init-script.ts'), output: { format: 'iife' } },
        },
      });
      const chunks = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
      const code = chunks.flatMap((o) => o.output).find((o) => o.type === 'chunk')?.code;
      if (!code) throw new Error('vite.node.config.ts: the init script build gave no chunk');
      return `export const initScript = ${JSON.stringify(code)};\nexport const toolVersion = ${JSON.stringify(pkg.version)};\n`;
    },
  };
}

export default defineConfig({
  // No public/ copy and no index.html: this is a server-side (SSR) bundle, not a page.
  publicDir: false,
  plugins: [initScript()],
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'dist/node',
    emptyOutDir: true,
    minify: false,
    sourcemap: true,
    rolldownOptions: {
      input: {
        index: at('src/core/index.ts'),
        cli: at('src/cli/main.ts'),
        playwright: at('src/playwright/index.ts'),
        'client-guard': at('src/client-guard/index.ts'),
        'event-store': at('src/event-store/index.ts'),
        'event-store-redis': at('src/event-store/redis.ts'),
        replay: at('src/replay/index.ts'),
      },
      // The Redis store takes the app's client; nothing imports ioredis, and it must never be bundled if one does.
      external: ['ioredis'],
      output: {
        format: 'es',
        entryFileNames: '[name].js',
        chunkFileNames: '[name]-[hash].js',
      },
    },
  },
});
