// Node (the test's process): what the Playwright fixture shows of an analysis: the findings at or above a severity,
// one readable block each, and the capture file it attaches to the test report (redacted unless opted in).
import { fileURLToPath } from 'node:url';
import type { TestInfo } from '@playwright/test';
import { analyze } from '../core/analyze';
import { serializeCapture } from '../core/capture/format';
import type { Capture } from '../core/capture/model';
import { redactCapture } from '../core/capture/redact/capture';
import { atLeast, SEVERITIES } from '../core/guard/severity';
import type { Finding, Severity } from '../core/guard/types';

/** The findings of a capture as its export would show them: analyzed after redaction unless `revealSecrets`. */
export function findingsOf(capture: Capture, revealSecrets: boolean): Finding[] {
  return analyze(revealSecrets ? capture : redactCapture(capture).capture).findings;
}

/** `findings` at or above `failOn`, most severe first. */
export function failing(findings: readonly Finding[], failOn: Severity): Finding[] {
  return findings
    .filter((f) => atLeast(f.severity, failOn))
    .sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
}

/** One block per finding: severity and rule id, the message, where, and the rule's doc page. */
export function describeFindings(findings: readonly Finding[]): string {
  return findings
    .map((f) => {
      const where = [
        f.connectionId && `connection ${f.connectionId}`,
        f.eventId && `event id ${f.eventId}`,
        f.byteOffset !== undefined && `byte ${f.byteOffset}`,
      ].filter(Boolean);
      const lines = [`  ${f.severity} ${f.rule}: ${f.message}`];
      if (where.length > 0) lines.push(`    at ${where.join(', ')}`);
      lines.push(`    docs: ${docPath(f.rule)}`);
      return lines.join('\n');
    })
    .join('\n');
}

/** A rule's doc page in the installed package (this module runs as dist/node/playwright.js). */
function docPath(rule: string): string {
  return fileURLToPath(new URL(`../../src/core/guard/rules/${rule}.md`, import.meta.url));
}

/** Attaches the capture file (format v1, what `analyze` and the panel's Import read) to the running test. */
export async function attachCapture(
  testInfo: TestInfo,
  name: string,
  capture: Capture,
  options: { revealSecrets: boolean; findings?: readonly Finding[] },
): Promise<void> {
  const body = serializeCapture(capture, { revealSecrets: options.revealSecrets, findings: options.findings });
  await testInfo.attach(name, { body, contentType: 'application/json' });
}
