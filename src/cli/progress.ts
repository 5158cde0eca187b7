// Runs in Node (CLI), pure: the progress bar of a long analysis, drawn on a terminal's stderr and erased before
// any report is written. Only a terminal gets one (CliIo.progress exists only then), so no pipe, file or CI log
// and nothing on stdout ever carries it.
import type { ProgressTerminal } from './io';

/** Redraws at most this often: a terminal is slow, and a faster bar is not easier to read. */
const REDRAW_MS = 100;
/** Files read faster than this never show a bar (no flicker on small inputs). */
const SHOW_AFTER_MS = 300;

export class ProgressBar {
  private readonly started: number;
  private drawnAt = Number.NEGATIVE_INFINITY;
  private shown = false;

  constructor(
    private readonly terminal: ProgressTerminal,
    private readonly file: string,
    private readonly size: number | undefined,
  ) {
    this.started = terminal.now();
  }

  /** While reading: bytes read so far and the list elements (HAR entries, capture connections) read. */
  reading(bytes: number, elements: number): void {
    const now = this.terminal.now();
    if (now - this.drawnAt < REDRAW_MS || now - this.started < SHOW_AFTER_MS) return;
    this.draw(readingLine(this.file, bytes, elements, this.size, now - this.started), now);
  }

  /** Read to the end, the analysis runs: said once, so a long analysis does not look like a hang. */
  analyzing(bytes: number, elements: number): void {
    if (!this.shown && this.terminal.now() - this.started < SHOW_AFTER_MS) return;
    const what = elements > 0 ? `, ${count(elements)} entries` : '';
    this.draw(`analyzing ${this.file}: ${megabytes(bytes)} read${what}`, this.terminal.now());
  }

  /** Erases the bar (before a report or a message is written). */
  clear(): void {
    if (this.shown) this.terminal.write(`\r${' '.repeat(this.width())}\r`);
    this.shown = false;
  }

  private draw(line: string, now: number): void {
    const width = this.width();
    const fitted = line.length > width ? `${line.slice(0, width - 1)}…` : line.padEnd(width);
    this.terminal.write(`\r${fitted}`);
    this.drawnAt = now;
    this.shown = true;
  }

  /** One column short of the terminal's: writing the last column wraps some terminals to a new line. */
  private width(): number {
    return Math.max(20, this.terminal.columns - 1);
  }
}

/**
 * ` 45% [#########           ] 450.0/1000.0 MB  12,345 entries  ETA 3s  big.har` (no size: no bar, no ETA). The file
 * comes last: on a narrow terminal the line is cut at its end, and the figures matter more than a long path.
 */
export function readingLine(
  file: string,
  bytes: number,
  elements: number,
  size: number | undefined,
  elapsedMs: number,
): string {
  const entries = elements > 0 ? `  ${count(elements)} entries` : '';
  if (size === undefined || size === 0) return `${megabytes(bytes)}${entries}  ${file}`;
  const fraction = Math.min(1, bytes / size);
  const filled = Math.round(fraction * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${' '.repeat(BAR_WIDTH - filled)}]`;
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  const eta = bytes > 0 ? `  ETA ${duration(((size - bytes) * elapsedMs) / bytes)}` : '';
  return `${percent} ${bar} ${megabytes(bytes, size)}${entries}${eta}  ${file}`;
}

const BAR_WIDTH = 20;

function megabytes(bytes: number, of?: number): string {
  const mb = (n: number) => (n / 1e6).toFixed(1);
  return of === undefined ? `${mb(bytes)} MB` : `${mb(bytes)}/${mb(of)} MB`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function duration(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor(s / 60) % 60).padStart(2, '0')}m`;
}
