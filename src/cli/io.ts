// Runs in Node (CLI): everything the commands do to the outside world, so tests drive them in-process.
import type { RangeReader, ScratchFile } from './file-chunks';

export interface CliIo {
  /** Reads a file's bytes ("-" is standard input). Rejects with the system's reason when it cannot. */
  readFile(path: string): Promise<Uint8Array>;
  /**
   * Reads a file in fixed-size pieces ("-" is standard input), each in a buffer of its own (a raw stream keeps
   * them as its chunks). The iteration rejects with the system's reason when the file cannot be read.
   */
  readPieces(path: string): AsyncIterable<Uint8Array>;
  /**
   * Reads ranges of a regular file again, synchronously, while it stays open; undefined for standard input or
   * what cannot be opened (readPieces then says why). A raw stream's chunks hold no bytes when this is given.
   */
  openRanges?(path: string): RangeReader | undefined;
  /**
   * A temporary file for bodies too big to hold in memory all together (a HAR's), removed when closed and, where
   * the system allows (a file unlinked while open), even if the process is killed; undefined when none can be made.
   */
  openScratch?(): ScratchFile | undefined;
  /** The file's size in bytes, when it is a regular file (for the progress bar's percentage and ETA). */
  fileSize(path: string): Promise<number | undefined>;
  /** Where the progress bar goes: present only when stderr is a terminal. */
  progress?: ProgressTerminal;
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

/** A terminal's stderr, for the progress bar (redrawn in place with a carriage return). */
export interface ProgressTerminal {
  /** Columns of the terminal. */
  columns: number;
  write(text: string): void;
  /** A monotonic clock in ms (for the redraw rate and the ETA). */
  now(): number;
}
