// Runs anywhere (pure core): the one severity scale; the engine, the CLI's --fail-on and the panel all order by it.

/** How bad a finding is: `error` breaks the protocol, `warning` is a hazard, `info` is worth knowing. */
export type Severity = 'error' | 'warning' | 'info';

/** Every severity, most severe first: the order findings are sorted, counted and shown in. */
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

/**
 * The position of `severity` in {@link SEVERITIES}: 0 for `error`, larger for milder.
 * @example severityRank('error') < severityRank('warning') // true: error is more severe
 */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

/**
 * True when `severity` is as severe as `threshold` or more.
 * @example atLeast('error', 'warning') // true
 */
export function atLeast(severity: Severity, threshold: Severity): boolean {
  return severityRank(severity) <= severityRank(threshold);
}

/** The more severe of two severities; `undefined` counts as less severe than any. */
export function mostSevere(a: Severity | undefined, b: Severity): Severity {
  return a === undefined || severityRank(b) < severityRank(a) ? b : a;
}
