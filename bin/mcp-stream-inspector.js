#!/usr/bin/env node
// Runs in Node: the package's bin. The CLI itself is built into dist/node/cli.js (`npm run build:node`).
import('../dist/node/cli.js').catch((error) => {
  const missing = error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/node/cli.js');
  process.stderr.write(
    missing
      ? 'mcp-stream-inspector: the CLI is not built yet; run `npm run build:node` in the package directory.\n'
      : `mcp-stream-inspector: ${error && error.stack ? error.stack : error}\n`,
  );
  process.exitCode = 3;
});
