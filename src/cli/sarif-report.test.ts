// `--format sarif`, checked against the published SARIF 2.1.0 schema (fixtures/sarif-schema-2.1.0.json: the
// OASIS schema file, draft-04, as committed in the SARIF spec repository, reformatted by prettier).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import type { Log, Result } from 'sarif';
import { describe, expect, it } from 'vitest';
import { rules } from '../core/guard';
import { RAW_WITH_HEAD, cli, refused, scratchFolder, torn, tornChunks } from './ci-formats.fixture';
import { FINGERPRINT_KEY } from './sarif-report';

const schema: unknown = JSON.parse(readFileSync(new URL('fixtures/sarif-schema-2.1.0.json', import.meta.url), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema as object);
const scratch = scratchFolder();

async function sarif(...argv: string[]): Promise<{ code: number; log: Log; err: string }> {
  const { code, out, err } = await cli(['analyze', '--format', 'sarif', ...argv]);
  const log: Log = JSON.parse(out);
  expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
  return { code, log, err };
}

const resultsOf = (log: Log): Result[] => log.runs[0]?.results ?? [];

describe('--format sarif', () => {
  it('the schema rejects what is not SARIF (the validator is live)', () => {
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] })).toBe(false);
    expect(validate({ version: '2.0.0', runs: [] })).toBe(false);
  });

  it('describes every rule once: id, short and full description, help URI to its doc page, default level', async () => {
    const { log } = await sarif(torn);
    const descriptors = log.runs[0]?.tool.driver.rules ?? [];
    expect(descriptors.map((d) => d.id)).toEqual(rules.map((r) => r.id));
    for (const [i, d] of descriptors.entries()) {
      const rule = rules[i]!;
      expect(d.shortDescription?.text).toBe(rule.title);
      expect(d.fullDescription?.text).toBe(rule.summary);
      expect(d.defaultConfiguration?.level).toBe({ error: 'error', warning: 'warning', info: 'note' }[rule.severity]);
      const page = fileURLToPath(d.helpUri!);
      expect(page.endsWith(`src/core/guard/rules/${rule.id}.md`)).toBe(true);
      expect(existsSync(page)).toBe(true);
      expect(d.help?.markdown).toBe(readFileSync(page, 'utf8'));
    }
    expect(log.runs[0]?.tool.driver.name).toBe('mcp-stream-inspector');
  });

  it('a HAR finding: rule, level, message, the file and the HAR entry it is in', async () => {
    const { code, log } = await sarif(torn, '--chunks', tornChunks);
    expect(code).toBe(0);
    const [result, ...others] = resultsOf(log);
    expect(others).toEqual([]);
    expect(result?.ruleId).toBe('torn-event-reconnect');
    expect(log.runs[0]?.tool.driver.rules?.[result!.ruleIndex!]?.id).toBe('torn-event-reconnect');
    expect(result?.level).toBe('warning');
    expect(result?.message.text).toMatch(/^e4 ended holding 145 bytes .*\(HAR entry 4, connection e4, line \d+\)$/);
    const location = result?.locations?.[0];
    expect(location?.physicalLocation?.artifactLocation?.uri).toBe(pathToFileURL(torn).href);
    expect(location?.logicalLocations).toEqual([{ fullyQualifiedName: 'log.entries[3]', name: 'e4', kind: 'object' }]);
    // The region is the line where that entry opens: the 4th object of log.entries in the pretty-printed HAR.
    const text = readFileSync(torn, 'utf8');
    const line = location?.physicalLocation?.region?.startLine ?? 0;
    const from =
      text
        .split('\n')
        .slice(0, line - 1)
        .join('\n').length + 1;
    const entries = (JSON.parse(text) as { log: { entries: unknown[] } }).log.entries;
    const head = (t: string) =>
      t
        .split('\n')
        .slice(0, 3)
        .map((l) => l.trim());
    expect(head(text.slice(from))).toEqual(head(JSON.stringify(entries[3], null, 2)));
  });

  it('severities map to error, warning and note; the exit code follows --fail-on as with text', async () => {
    const { code, log } = await sarif(refused);
    expect(code).toBe(1);
    const levels = new Set(resultsOf(log).map((r) => r.level));
    expect(levels).toEqual(new Set(['error', 'warning', 'note']));
    expect((await sarif(refused, '--fail-on', 'never')).code).toBe(0);
  });

  it('a raw stream finding points at its byte in the file, head included, and its line', async () => {
    const raw = scratch('cut.sse', RAW_WITH_HEAD);
    const { code, log } = await sarif(raw);
    expect(code).toBe(1);
    const [result] = resultsOf(log);
    expect(result?.ruleId).toBe('incomplete-json');
    const region = result?.locations?.[0]?.physicalLocation?.region;
    const eventStart = RAW_WITH_HEAD.indexOf('id: 1');
    expect(region?.byteOffset).toBeGreaterThanOrEqual(eventStart);
    expect(region?.startLine).toBe(RAW_WITH_HEAD.slice(0, region!.byteOffset).split('\n').length);
    expect(region?.startLine).toBeGreaterThanOrEqual(4); // after the 3 lines of the saved head
  });

  it('fingerprints are the same on every run and differ between findings', async () => {
    const first = resultsOf((await sarif(refused)).log).map((r) => r.partialFingerprints?.[FINGERPRINT_KEY]);
    const again = resultsOf((await sarif(refused)).log).map((r) => r.partialFingerprints?.[FINGERPRINT_KEY]);
    expect(first.length).toBeGreaterThan(3);
    expect(again).toEqual(first);
    expect(new Set(first).size).toBe(first.length);
    for (const f of first) expect(f).toMatch(/^[0-9a-f]{32}(:\d+)?$/);
  });

  it('several files are one run; an unreadable one is a tool notification, and the exit code is 2', async () => {
    const missing = scratch('x', '').replace(/x$/, 'missing.har');
    const { code, log, err } = await sarif(torn, missing);
    expect(code).toBe(2);
    expect(err).toContain('missing.har: cannot read: ENOENT');
    const run = log.runs[0]!;
    expect(run.artifacts?.map((a) => a.location?.uri)).toEqual([pathToFileURL(torn).href, pathToFileURL(missing).href]);
    expect(run.invocations?.[0]?.executionSuccessful).toBe(false);
    const notification = run.invocations?.[0]?.toolExecutionNotifications?.[0];
    expect(notification?.level).toBe('error');
    expect(notification?.message.text).toContain('cannot read: ENOENT');
  });

  it('a relative path stays relative to the repository root, percent-encoded', async () => {
    const { log } = await sarif('./fixtures/cut-mid-event/capture.har', 'no such/dir #1/a%b.har');
    expect(log.runs[0]?.artifacts?.map((a) => a.location)).toEqual([
      { uri: 'fixtures/cut-mid-event/capture.har', uriBaseId: '%SRCROOT%' },
      { uri: 'no%20such/dir%20%231/a%25b.har', uriBaseId: '%SRCROOT%' },
    ]);
  });
});
