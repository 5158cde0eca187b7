// Runs in Node: runs lab scenarios with a recording SDK client (no browser) and checks the core's
// findings on what crossed the wire against each scenario's expected rules.
// CLI: npx tsx e2e/lab/check-findings.ts [scenario...] [--verbose]   (exit code 1 on a mismatch)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { analyze } from '../../src/core/analyze';
import type { Capture } from '../../src/core/capture/model';
import type { Finding } from '../../src/core/guard/types';
import { type Scenario, scenarios } from './scenarios';
import { runInLab } from './testing';

export interface FindingsCheck {
  scenario: Scenario;
  verdict: string;
  findings: Finding[];
  missing: string[];
  forbidden: string[];
}

export async function checkFindings(scenario: Scenario): Promise<FindingsCheck> {
  const run = await runInLab(scenario.name);
  const capture: Capture = {
    tool: { name: 'mcp-stream-inspector-lab', version: '0.1.0' },
    createdAt: Date.now(),
    connections: run.connections,
  };
  const findings = analyze(capture).findings;
  const rules = new Set(findings.map((finding) => finding.rule));
  return {
    scenario,
    verdict: run.result.verdict,
    findings,
    missing: scenario.expected.must.filter((rule) => !rules.has(rule)),
    forbidden: scenario.expected.mustNot.filter((rule) => rules.has(rule)),
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const verbose = args.includes('--verbose');
  const names = args.filter((arg) => !arg.startsWith('--'));
  let mismatches = 0;
  for (const scenario of scenarios.filter((s) => names.length === 0 || names.includes(s.name))) {
    const check = await checkFindings(scenario);
    const bad = check.missing.length > 0 || check.forbidden.length > 0;
    if (bad) mismatches += 1;
    const rules = [...new Set(check.findings.map((finding) => finding.rule))].join(', ') || 'none';
    let line = `${bad ? 'MISMATCH' : 'ok      '} ${scenario.name.padEnd(22)} client ${check.verdict.padEnd(9)} findings: ${rules}`;
    if (check.missing.length) line += `; missing ${check.missing.join(', ')}`;
    if (check.forbidden.length) line += `; unexpected ${check.forbidden.join(', ')}`;
    process.stdout.write(`${line}\n`);
    if (verbose)
      for (const finding of check.findings)
        process.stdout.write(`    ${finding.severity} ${finding.rule}: ${finding.message}\n`);
  }
  process.exitCode = mismatches > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
