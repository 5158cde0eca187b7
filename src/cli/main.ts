// Runs in Node: the mcp-stream-inspector CLI entry (bin/mcp-stream-inspector.js loads the built copy).
// Imports the pure core and node: modules only.
import process from 'node:process';
import { nodeIo } from './node-io';
import { EXIT_INTERNAL, EXIT_OK, run } from './run';

// A reader that stops early (`| head`) closes the pipe: stop quietly, as cat and grep do, with no stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT_OK);
    throw error;
  });
}

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
