// Runs in Node (vitest): the Python SDK lab live. Each scenario on fresh servers: the real Python SDK (mcp 2.3.0)
// client and server, the TS SDK v2 and 1.32 peers, the product's fault proxy between them with the lab's wire
// recorder; the client must end as planned and the core must find exactly what the plan says, on the same HAR the
// fixtures are made of. Skipped, with the reason in its name, only where python3 is absent; where .ci/run made the
// venv (MCP_LAB_PYTHON_REQUIRED=1) a missing venv fails here.
import { describe, expect, it } from 'vitest';
import { problemWith, PY_PLANS, recordPy, rulesIn } from './record';
import { pythonForTests } from './venv';

const TIMEOUT = 60_000;
const env = pythonForTests();
const python = env.ok ? env.python : '';

describe.skipIf(!env.ok).concurrent(`the Python SDK lab${env.ok ? '' : ` (skipped: ${env.reason})`}`, () => {
  it.each(PY_PLANS.map((p) => [p.name, p]))(
    '%s: the client ends as planned, the findings are the plan',
    async (_name, plan) => {
      const recorded = await recordPy(plan, python);
      expect(problemWith(plan, recorded), recorded.result.steps.join('; ')).toBeUndefined();
      expect(rulesIn(recorded)).toEqual([...plan.must].sort());
      const cut = plan.name.includes('cut') || plan.name === 'py-2025-resume';
      expect(recorded.result.faults.map((f) => f.action)).toEqual(cut ? ['cut'] : []);
      if (plan.name === 'py-client-cut-not-reissued')
        // The Python SDK fails the call as soon as its stream breaks (no timeout wait, unlike TS v2 2.4.0).
        expect(recorded.result.errors.join('; ')).toMatch(/without a response|ended|closed|disconnect/i);
    },
    TIMEOUT,
  );
});
