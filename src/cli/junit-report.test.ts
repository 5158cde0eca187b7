// `--format junit`: parsed back with a real XML parser (fast-xml-parser), checked as a test report reader would.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../core/guard/types';
import { cli, clean, refused, scratchFolder, torn, tornChunks } from './ci-formats.fixture';
import { fixtureSessionId } from '../core/fixtures-dir.fixture';
import { toJunit } from './junit-report';

interface Failure {
  '@_message': string;
  '@_type': string;
  '#text': string;
}
interface TestCase {
  '@_classname': string;
  '@_name': string;
  failure?: Failure[];
  error?: { '@_message': string }[];
  'system-out'?: string[];
}
interface TestSuite {
  '@_name': string;
  '@_tests': string;
  '@_failures': string;
  '@_errors': string;
  testcase?: TestCase[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true, // numeric character references (&#10;), which plain XML mode leaves as they are
  isArray: (name) => ['testsuite', 'testcase', 'failure', 'error', 'system-out'].includes(name),
});

/** The suites of a JUnit document, after checking it is well-formed XML. */
function suitesOf(xml: string): TestSuite[] {
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = parser.parse(xml) as { testsuites: { testsuite?: TestSuite[] } };
  return doc.testsuites.testsuite ?? [];
}

const scratch = scratchFolder();

describe('--format junit', () => {
  it('one testsuite per file, one testcase per session, a failure per finding at or above --fail-on', async () => {
    const { code, out } = await cli(['analyze', '--format', 'junit', refused, clean, '--fail-on', 'warning']);
    expect(code).toBe(1);
    const [withFindings, without] = suitesOf(out);
    expect(withFindings?.['@_name']).toBe(refused);
    expect(without?.['@_name']).toBe(clean);
    const session = 'redacted-session-1'; // the report's alias (docs/redaction.md)
    expect(out).not.toContain(fixtureSessionId('resume-404'));
    const [testcase] = withFindings?.testcase ?? [];
    expect(testcase?.['@_name']).toBe(`session ${session}`);
    // resume-404: 2 errors and 1 warning fail at --fail-on warning; the 2 info findings are listed, not failed.
    expect(testcase?.failure?.map((f) => f['@_type'])).toEqual([
      'session-not-reinitialized',
      'stale-cursor-retry',
      'unanswered-after-disconnect',
    ]);
    expect(testcase?.failure?.[0]?.['@_message']).toMatch(/^session-not-reinitialized: session .* got 404 on e5/);
    expect(testcase?.failure?.[0]?.['#text']).toMatch(
      /^error session-not-reinitialized: .*\(HAR entry 6, connection e6, line \d+\)$/,
    );
    expect(testcase?.['system-out']?.[0]?.split('\n')).toHaveLength(2);
    expect(withFindings?.['@_failures']).toBe('1');
    expect(without?.['@_failures']).toBe('0');
    expect(Number(without?.['@_tests'])).toBe(without?.testcase?.length ?? 0);
  });

  it('--fail-on decides what is a failure: error by default, nothing with never', async () => {
    const byDefault = suitesOf((await cli(['analyze', '--format', 'junit', refused])).out);
    expect(byDefault[0]?.testcase?.[0]?.failure).toHaveLength(2);
    const never = await cli(['analyze', '--format', 'junit', refused, '--fail-on', 'never']);
    expect(never.code).toBe(0);
    expect(suitesOf(never.out)[0]?.testcase?.[0]?.failure).toBeUndefined();
    const tornRun = await cli(['analyze', '--format', 'junit', torn, '--chunks', tornChunks]);
    expect(tornRun.code).toBe(0); // a warning, below the default --fail-on error
    expect(suitesOf(tornRun.out)[0]?.['@_failures']).toBe('0');
  });

  it('an unreadable file is a testsuite with a testcase in error, and the exit code is 2', async () => {
    const missing = scratch('x', '').replace(/x$/, 'missing.har');
    const { code, out } = await cli(['analyze', '--format', 'junit', missing]);
    expect(code).toBe(2);
    const [suite] = suitesOf(out);
    expect(suite?.['@_errors']).toBe('1');
    expect(suite?.testcase?.[0]?.error?.[0]?.['@_message']).toMatch(/^cannot read: ENOENT/);
  });

  it('markup, quotes, line breaks and characters XML cannot carry survive as text', () => {
    const message = 'a <b> & "c" \'d\' ]]> e\r\nf\tg \u0001 \ud800 end';
    const finding: Finding = { rule: 'incomplete-json', severity: 'error', message, sessionKey: 's<&>"1' };
    const xml = toJunit(
      [
        {
          file: 'dir/"odd" & <name>.har',
          ok: true,
          sessions: ['s<&>"1'],
          findings: [finding],
          places: [{ kind: 'file' }],
        },
      ],
      'error',
    );
    const [suite] = suitesOf(xml);
    expect(suite?.['@_name']).toBe('dir/"odd" & <name>.har');
    const testcase = suite?.testcase?.[0];
    expect(testcase?.['@_name']).toBe('session s<&>"1');
    const printable = message.replace('\u0001', '\\u{1}').replace('\ud800', '\\u{d800}');
    expect(testcase?.failure?.[0]?.['@_message']).toBe(`incomplete-json: ${printable}`);
    expect(testcase?.failure?.[0]?.['#text']).toBe(`error incomplete-json: ${printable}`);
  });
});
