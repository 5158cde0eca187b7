// Node (dev scripts): runs a script's main, printing a failure with its stack and exiting 1.
export function runScript(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
