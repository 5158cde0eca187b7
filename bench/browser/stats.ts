// Node (benches): rounds, medians with min/max, the printed table and the closing BENCH line that bench/run.ts
// collects. Nothing here measures; it only says what the runners measured.

/** Rounds per bench: BENCH_ROUNDS (1 for a quick look while iterating), 5 by default, the minimum. */
export function rounds(): number {
  const value = Number(process.env.BENCH_ROUNDS ?? '5');
  return Number.isInteger(value) && value >= 1 ? value : 5;
}

/** "5 rounds" (or "1 round"), for table titles. */
export function roundsText(): string {
  const n = rounds();
  return `${n} round${n === 1 ? '' : 's'}`;
}

/**
 * The order of the two variants in round `round`: alternating which goes first, so a drift in the machine's load
 * (other sessions share its 2 cores) falls on both sides equally.
 */
export function variantOrder(round: number): readonly boolean[] {
  return round % 2 === 0 ? [false, true] : [true, false];
}

/**
 * `arms` in round `round`'s order: rotated by one per round, so over as many rounds as there are arms each arm runs
 * once in every position (the two-sided benches alternate with variantOrder).
 */
export function rotated<T>(arms: readonly T[], round: number): T[] {
  const shift = round % Math.max(1, arms.length);
  return [...arms.slice(shift), ...arms.slice(0, shift)];
}

export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median, min: sorted[0] as number, max: sorted[sorted.length - 1] as number, n: sorted.length };
}

/**
 * with[r] / without[r] per round: the two sides of a round ran minutes apart at most, under the same load, so the
 * spread of these says how far the load moved a single comparison.
 */
export function pairedRatios(without: readonly number[], withExtension: readonly number[]): Summary {
  return summarize(withExtension.map((w, r) => w / (without[r] ?? Number.NaN)));
}

/** "89.1 [85.0–92.3]": median, then min–max, each to `digits` decimals. */
export function formatSummary(s: Summary, digits = 1): string {
  if (s.n === 0) return '-';
  if (s.n === 1) return s.median.toFixed(digits);
  return `${s.median.toFixed(digits)} [${s.min.toFixed(digits)}–${s.max.toFixed(digits)}]`;
}

/** The p-th percentile (0..100) of `values`, nearest rank; NaN for none. */
/**
 * A table row shown but not gated (no target): median [min–max] of each side, the ratio of the medians and the spread
 * of the per-round ratios, in the column order the page benches' tables share.
 */
export function infoRow(
  label: string,
  without: readonly number[],
  withExtension: readonly number[],
  digits: number,
): string[] {
  const a = summarize(without);
  const b = summarize(withExtension);
  return [
    label,
    formatSummary(a, digits),
    formatSummary(b, digits),
    (b.median / a.median).toFixed(2),
    formatSummary(pairedRatios(without, withExtension), 2),
    '',
  ];
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export function printTable(title: string, header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  process.stdout.write(`\n${title}\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
}

/** One figure of a BENCH line: its value, its target as text (with the comparison), and whether it met it. */
export interface Figure {
  name: string;
  value: string;
  target: string;
  pass: boolean;
}

/**
 * Prints `BENCH <name> <figures>=<values> target=<targets> PASS|FAIL`, several figures joined by '/', so each bench
 * ends in exactly one line; PASS only when every figure met its target.
 */
export function printBenchLine(bench: string, figures: readonly Figure[]): void {
  const names = figures.map((f) => f.name).join('/');
  const values = figures.map((f) => f.value).join('/');
  const targets = figures.map((f) => f.target).join('/');
  const pass = figures.length > 0 && figures.every((f) => f.pass);
  process.stdout.write(`BENCH ${bench} ${names}=${values} target=${targets} ${pass ? 'PASS' : 'FAIL'}\n`);
}

export function log(message: string): void {
  process.stdout.write(`${message}\n`);
}

/** A small seeded PRNG (mulberry32): the same resamples on every run, so the interval does not wobble by itself. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A 90% bootstrap interval of median(b) - median(a), resampling each side's values: how far the difference of
 * medians could move by chance alone. A target inside the interval is not resolved by this run.
 */
export function bootstrapDifference(a: readonly number[], b: readonly number[], iterations = 2000): [number, number] {
  if (a.length === 0 || b.length === 0) return [Number.NaN, Number.NaN];
  const next = random(0x5eed);
  const resample = (values: readonly number[]): number[] =>
    values.map(() => values[Math.floor(next() * values.length)] as number);
  const differences: number[] = [];
  for (let i = 0; i < iterations; i++) {
    differences.push(summarize(resample(b)).median - summarize(resample(a)).median);
  }
  return [percentile(differences, 5), percentile(differences, 95)];
}
