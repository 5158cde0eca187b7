// Runs in Node (lab server) and in the demo page: the exact text each lab tool answers, so the
// client can tell an intact result from a corrupted one. No Node or DOM APIs.

export interface StreamProgressArgs {
  count: number;
  delayMs: number;
  /** After this many progress notifications the server closes the stream (2025-11-25 polling); the work goes on. */
  closeStreamAfter?: number;
}

export interface ConsentRequiredArgs {
  /** Where the user must go first: the tool answers a JSON-RPC error -32042 (URL elicitation required) naming it. */
  url: string;
}

export interface BigResultArgs {
  sizeBytes: number;
  /** Progress notifications sent before the result, so a cut can wait for them. */
  progressSteps?: number;
}

export interface AskUserArgs {
  question: string;
}

/** FNV-1a over UTF-16 code units: a cheap checksum both ends compute the same way. */
export function checksum(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

export function streamProgressText(args: StreamProgressArgs): string {
  const steps = Array.from({ length: args.count }, (_, i) => `step ${i + 1}`).join(', ');
  return `stream_progress finished ${args.count} steps (${steps}); checksum ${checksum(steps)}`;
}

/** ASCII lines `big_result line 000001 ...`, cut to exactly `sizeBytes` characters (= bytes). */
export function bigResultText(sizeBytes: number): string {
  const filler = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const lines: string[] = [];
  let length = 0;
  for (let n = 1; length < sizeBytes; n++) {
    const line = `big_result line ${String(n).padStart(6, '0')} ${filler}\n`;
    lines.push(line);
    length += line.length;
  }
  return lines.join('').slice(0, sizeBytes);
}

export function askUserText(answer: string): string {
  return `the user answered: ${answer}`;
}

export function askUserDeclinedText(action: string): string {
  return `the user did not answer (${action})`;
}
