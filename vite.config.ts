// Node (build): the extension for one browser. `TARGET=chrome|firefox vite build` -> dist/chrome, dist/firefox.
// One manifest.json at the root; the Firefox variant is derived here (event-page background, gecko settings).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { crx, type ManifestV3Export } from '@crxjs/vite-plugin';
import { defineConfig, type Plugin } from 'vite';
import manifest from './manifest.json' with { type: 'json' };
import pkg from './package.json' with { type: 'json' };
import { preactWithoutInnerHtml } from './scripts/build/preact-without-inner-html';

type Target = 'chrome' | 'firefox';

const target: Target = process.env.TARGET === 'firefox' ? 'firefox' : 'chrome';

export const GECKO_ID = 'mcp-stream-inspector@example.org';

/** Tap and bridge must run synchronously at document_start: built as standalone IIFEs, not crxjs's async loader. */
const STANDALONE_CONTENT_SCRIPTS = ['src/tap/index.ts', 'src/bridge/index.ts'];

/** The panel page is opened by devtools.panels.create and as a plain page: crxjs cannot see it in the manifest. */
const PANEL_PAGE = 'src/panel/panel.html';

function manifestFor(browser: Target): ManifestV3Export {
  const base = { ...manifest, version: pkg.version };
  // Chrome clones messages (their Blobs) only from 148 (INTERNALS: message_serialization): an older one would install a
  // panel that receives nothing, so the store offers it from 148 on. Firefox warns about the key: Chrome's alone.
  if (browser === 'chrome') return { ...base, minimum_chrome_version: '148' };
  const { service_worker: worker } = manifest.background;
  // Firefox messaging is a structured clone already, and it warns about the key it does not know.
  const { message_serialization: _serialization, ...firefoxBase } = base;
  // Firefox ESR 140 is what Debian ships (and CI installs); Android reads data_collection_permissions from 142.
  // A variable, not a literal in the return: crxjs's manifest type does not know gecko_android yet.
  const browserSpecific = {
    gecko: { id: GECKO_ID, strict_min_version: '140.0', data_collection_permissions: { required: ['none' as const] } },
    gecko_android: { strict_min_version: '142.0' },
  };
  return {
    ...firefoxBase,
    background: { scripts: [worker], type: 'module' },
    browser_specific_settings: browserSpecific,
  };
}

/**
 * V8's explicit compile hint (Chromium 136+; other engines read a comment): every function of the panel's and its
 * worker's bundles is compiled when the script loads, at panel open, not lazily inside the first tasks that draw or
 * analyse data. Measured in Chromium 156 (bench panel-100k, trace of the panel page): lazy compilation was 20-50 ms of
 * each of the first long tasks while receiving.
 */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';
const eagerPanelCode: Plugin = {
  name: 'mcp-eager-panel-code',
  enforce: 'post',
  generateBundle: {
    order: 'post',
    handler(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk' && /^assets\/(panel|worker)-/.test(chunk.fileName))
          chunk.code = COMPILE_HINT + chunk.code;
      }
    },
  },
};

/**
 * manifest.json lists the tap and the bridge under content_scripts so that crxjs builds them; the extension itself
 * registers them at run time (src/background/content-scripts.ts, src/platform/sites.ts) where the user's "Record
 * on" setting says: every site, or only the sites the user picked. Static entries could not be withdrawn from a
 * site, so they leave the emitted manifest.
 */
const dynamicContentScripts: Plugin = {
  name: 'mcp-dynamic-content-scripts',
  enforce: 'post',
  generateBundle: {
    order: 'post',
    handler(_options, bundle) {
      const asset = bundle['manifest.json'];
      if (asset?.type !== 'asset') throw new Error('vite.config.ts: crxjs emitted no manifest.json');
      const emitted = JSON.parse(String(asset.source)) as Record<string, unknown>;
      delete emitted['content_scripts'];
      asset.source = `${JSON.stringify(emitted, null, 2)}\n`;
    },
  },
};

/**
 * The tap runs in the page's own world, so its frames show in the stacks of errors that reach the page (a fetch
 * error is thrown while the tap's wrapper is on the stack). Named by a sourceURL, those frames read `<anonymous>`
 * in Chromium instead of `chrome-extension://<id>/...`, which would tell any page that the extension is installed.
 */
const TAP_SOURCE_URL = '\n//# sourceURL=<anonymous>\n';
/**
 * The tap and the bridge are compiled whole at document_start (COMPILE_HINT), not function by function inside the
 * page's first recorded fetch: traced in Chromium 150 (bench/browser/cold-probe.ts), lazy compiling made the first
 * batch's tasks 5-13 ms (tap) and 3-9 ms (bridge) against 3-4 ms and 1 ms with the hint, and a 4 ms compile sat in
 * one of them; their evaluation at document_start stayed within the noise (3-10 ms either way).
 */
const anonymousTap: Plugin = {
  name: 'mcp-anonymous-tap',
  // crxjs builds the standalone content scripts apart from this bundle: the written files are amended last.
  closeBundle: {
    order: 'post',
    handler() {
      for (const script of ['tap', 'bridge']) {
        const file = `dist/${target}/src/${script}/index.js`;
        if (!existsSync(file)) throw new Error(`vite.config.ts: ${file} was not built`);
        let code = readFileSync(file, 'utf8');
        if (!code.startsWith(COMPILE_HINT)) code = COMPILE_HINT + code;
        if (script === 'tap' && !code.endsWith(TAP_SOURCE_URL)) code += TAP_SOURCE_URL;
        writeFileSync(file, code);
      }
    },
  },
};

for (const page of [manifest.devtools_page, PANEL_PAGE]) {
  if (!existsSync(page)) throw new Error(`vite.config.ts: ${page} is missing (the panel build needs it)`);
}

export default defineConfig({
  plugins: [
    crx({
      manifest: manifestFor(target),
      browser: target,
      contentScripts: { standaloneFiles: STANDALONE_CONTENT_SCRIPTS },
    }),
    eagerPanelCode,
    dynamicContentScripts,
    anonymousTap,
    preactWithoutInnerHtml(),
  ],
  worker: { plugins: () => [eagerPanelCode] },
  // Preact through the automatic JSX runtime (tsconfig says the same; vite 8 transforms with oxc).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: `dist/${target}`,
    emptyOutDir: true,
    target: target === 'firefox' ? 'firefox140' : 'chrome120',
    sourcemap: false,
    rollupOptions: { input: { panel: PANEL_PAGE } },
  },
  // The build must never reach out: no dev server in the tests, no remote anything.
  logLevel: 'warn',
});
