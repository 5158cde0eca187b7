// Runs in Node (vitest): what `npm start -- --headless` prints for the TS SDK v2 scenarios, on two real runs (a
// recorded plan and a fault plan) and on a name list that holds none of them.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runV2Headless, V2_SCENARIO_NAMES } from './headless';

const dir = mkdtempSync(join(tmpdir(), 'v2-headless-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the v2 scenarios of npm start -- --headless', () => {
  it('names every recorded plan and fault plan', () => {
    expect(V2_SCENARIO_NAMES).toContain('v2-clean');
    expect(V2_SCENARIO_NAMES).toContain('v2-fault-session-header');
    expect(V2_SCENARIO_NAMES).toContain('v2-fault-event-ids');
    expect(V2_SCENARIO_NAMES).toContain('v2-fault-response-id');
  });

  it('runs the named ones, one line each, and writes their HARs', async () => {
    const lines: string[] = [];
    const broken = await runV2Headless(['v2-cut-reissued', 'v2-fault-session-header', 'clean'], dir, (l) =>
      lines.push(l),
    );
    expect(broken).toBe(0);
    expect(lines.slice(1)).toEqual([
      '  v2-cut-reissued: client ok, findings none · as expected',
      '  v2-fault-session-header: client ok, findings stateless-session-headers · as expected',
    ]);
    expect(existsSync(join(dir, 'v2-cut-reissued.har'))).toBe(true);
  }, 30_000);

  it('says nothing when the names hold only other scenarios', async () => {
    const lines: string[] = [];
    expect(await runV2Headless(['clean', 'py-clean'], dir, (l) => lines.push(l))).toBe(0);
    expect(lines).toEqual([]);
  });
});
