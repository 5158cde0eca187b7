// Runs in Node (CLI), pure (no I/O): `--format junit`, JUnit XML for test reports (docs/ci-formats.md).
import { atLeast } from '../core/guard/severity';
import type { Finding } from '../core/guard/types';
import { RELAYED_LABEL } from '../core/model/relayed-label';
import type { FailOn } from './args';
import type { Place } from './locate';
import { describePlace } from './locate';

/** One input file as JUnit sees it: its sessions (testcases) and findings, or why it could not be read. */
export type JunitFile =
  | {
      file: string;
      ok: true;
      sessions: readonly string[];
      findings: readonly Finding[];
      places: readonly Place[];
      /** The keys of the relayed sessions: their testcases are named so. */
      relayed?: ReadonlySet<string>;
    }
  | { file: string; ok: false; message: string };

/** The testcase of findings that name no session (none of the current rules do, but a finding may). */
const NO_SESSION = '(no session)';

interface Case {
  name: string;
  failures: string[];
  passed: string[];
}

/**
 * One testsuite per file, one testcase per session, a `<failure>` per finding at or above `failOn`; milder
 * findings are listed in the testcase's `<system-out>`. A file that could not be read is a testsuite with one
 * testcase in error. `failures` counts failing testcases, as JUnit readers expect.
 */
export function toJunit(files: readonly JunitFile[], failOn: FailOn): string {
  const suites = files.map((f) => suite(f, failOn));
  const sum = (key: 'tests' | 'failures' | 'errors') => suites.reduce((n, s) => n + s[key], 0);
  const head = `<testsuites name="mcp-stream-inspector" tests="${sum('tests')}" failures="${sum('failures')}" errors="${sum('errors')}">`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', head, ...suites.map((s) => s.xml), '</testsuites>', ''].join('\n');
}

function suite(f: JunitFile, failOn: FailOn): { xml: string; tests: number; failures: number; errors: number } {
  const name = attr(f.file);
  if (!f.ok) {
    const error = `      <error message="${attr(f.message)}" type="input">${text(f.message)}</error>`;
    const body = [`    <testcase classname="${name}" name="read">`, error, '    </testcase>'];
    const xml = [`  <testsuite name="${name}" tests="1" failures="0" errors="1">`, ...body, '  </testsuite>'];
    return { xml: xml.join('\n'), tests: 1, failures: 0, errors: 1 };
  }
  const caseName = (s: string): string => (f.relayed?.has(s) ? `session ${s} (${RELAYED_LABEL})` : `session ${s}`);
  const cases = new Map<string, Case>(f.sessions.map((s) => [s, { name: caseName(s), failures: [], passed: [] }]));
  f.findings.forEach((finding, i) => {
    const key = finding.sessionKey ?? NO_SESSION;
    let c = cases.get(key);
    if (!c) {
      c = { name: key === NO_SESSION ? key : caseName(key), failures: [], passed: [] };
      cases.set(key, c);
    }
    const where = describePlace(f.places[i] ?? { kind: 'file' });
    const line = `${finding.severity} ${finding.rule}: ${finding.message}${where === '' ? '' : ` (${where})`}`;
    if (failOn !== 'never' && atLeast(finding.severity, failOn)) {
      const message = attr(`${finding.rule}: ${finding.message}`);
      c.failures.push(`      <failure message="${message}" type="${attr(finding.rule)}">${text(line)}</failure>`);
    } else c.passed.push(line);
  });
  const lines: string[] = [];
  let failing = 0;
  for (const c of cases.values()) {
    if (c.failures.length > 0) failing++;
    lines.push(`    <testcase classname="${name}" name="${attr(c.name)}">`, ...c.failures);
    if (c.passed.length > 0) lines.push(`      <system-out>${text(c.passed.join('\n'))}</system-out>`);
    lines.push('    </testcase>');
  }
  const open = `  <testsuite name="${name}" tests="${cases.size}" failures="${failing}" errors="0">`;
  return { xml: [open, ...lines, '  </testsuite>'].join('\n'), tests: cases.size, failures: failing, errors: 0 };
}

/**
 * Characters XML 1.0 cannot carry even as references (C0 controls but tab, LF and CR; lone surrogates;
 * U+FFFE, U+FFFF) are written as `\u{...}` so the text stays readable and the document well-formed.
 */
function legal(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const high = c >= 0xd800 && c <= 0xdbff;
    const paired = high && i + 1 < value.length && isLowSurrogate(value.charCodeAt(i + 1));
    if (paired) {
      out += value.slice(i, i + 2);
      i++;
    } else if (illegal(c)) out += `\\u{${c.toString(16)}}`;
    else out += value[i];
  }
  return out;
}

const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** Not a Char of XML 1.0, when not part of a surrogate pair. */
function illegal(c: number): boolean {
  if (c < 0x20) return c !== 0x09 && c !== 0x0a && c !== 0x0d;
  return (c >= 0xd800 && c <= 0xdfff) || c === 0xfffe || c === 0xffff;
}

/**
 * Character data: `&`, `<` and `>` (the last so that `]]>` never appears), and CR as a reference, since a
 * parser turns a literal CR (or CRLF) into LF.
 */
function text(value: string): string {
  return legal(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

/** An attribute value in double quotes; tab, LF (and CR) as references, so attribute normalization keeps them. */
function attr(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}
