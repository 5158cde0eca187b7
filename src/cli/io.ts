// Runs in Node (CLI): everything the commands do to the outside world, so tests drive them in-process.

export interface CliIo {
  /** Reads a file's bytes ("-" is standard input). Rejects with the system's reason when it cannot. */
  readFile(path: string): Promise<Uint8Array>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Colour the human report (stdout is a terminal and NO_COLOR is unset). */
  color: boolean;
  /** Absolute path of a rule's doc page (src/core/guard/rules/<id>.md inside the package). */
  docPath(ruleId: string): string;
  version: string;
  /** Writes a file whole (the proxy's recording). */
  writeFile(path: string, text: string): Promise<void>;
  /** Resolves with the signal's name once the user asks the process to stop (SIGINT, SIGTERM). */
  untilStopped(): Promise<string>;
}
