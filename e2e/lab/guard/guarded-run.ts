// Runs in Node (`npm start`'s table): a lab scenario's SDK client run again behind the client guard, and the one cell
// the table shows for it. No DOM.
import { runScenario, type RunResult } from '../client/run-scenario';
import type { Scenario } from '../scenarios';

const ACTIONS: Record<string, string> = {
  'torn-event-reconnect': 'withheld a torn event',
  'replayed-event-duplicate': 'dropped a replay',
  'post-stream-not-resumed': 'resumed a closed stream',
  'stateless-request-not-reissued': 're-issued',
};

/** What the guarded client ended with, and what the guard did, in a few words: "ok, refused epoch-mismatch, ...". */
export function guardedCell(result: RunResult): string {
  const guard = result.guard;
  const did = Object.entries(guard?.counts ?? {})
    .filter(([rule]) => !guard?.rejections.some((r) => r.rule === rule))
    .map(([rule]) => ACTIONS[rule] ?? rule);
  const refused = guard?.rejections.map((r) => `refused ${r.rule}, re-initialized, called again`) ?? [];
  return [result.verdict, ...refused, ...did].join(', ');
}

/** The scenario's client behind the guard, against the lab at `baseUrl` (the scenario is selected first). */
export function runGuarded(scenario: Scenario, baseUrl: string): Promise<RunResult> {
  return runScenario(scenario, { baseUrl, guard: true });
}
