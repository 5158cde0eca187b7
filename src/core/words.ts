// Runs anywhere (pure core): counts in words, for the CLI's report and the panel's notices alike.

/** "1 connection", "2 connections", "0 events": English plurals of the regular kind (the only kind we print). */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
