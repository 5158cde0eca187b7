// Runs in Node: the mcp-stream-inspector CLI entry (bin/mcp-stream-inspector.js loads the built copy).
// Imports the pure core and node: modules only.
import process from 'node:process';
import { nodeIo } from './node-io';
import { EXIT_INTERNAL, run } from './run';

run(process.argv.slice(2), nodeIo()).then(
  (code) => {
    // exitCode, not exit(): lets stdout drain when it is a pipe.
    process.exitCode = code;
  },
  (error: unknown) => {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`mcp-stream-inspector: internal error: ${detail}\n`);
    process.exitCode = EXIT_INTERNAL;
  },
);
