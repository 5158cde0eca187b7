// The CLI's reports on the MCP Inspector recordings (fixtures/mcp-inspector*.capture.json): every one says, where it
// names a session, that the session was relayed ("relayed: bytes not visible"), as the panel's badge does; direct
// sessions say nothing of the kind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../core/analyze';
import { parseCapture } from '../core/capture/format';
import { rules } from '../core/guard/index';
import type { Finding } from '../core/guard/types';
import { FIXTURES_DIR } from '../core/fixtures-dir.fixture';
import { RELAYED_LABEL } from '../core/model/relayed-label';
import { clean, cli } from './ci-formats.fixture';
import { findingAnnotations } from './github-report';
import type { JsonReport } from './json-report';
import { toJunit } from './junit-report';
import { toSarif } from './sarif-report';

const RECORDINGS = ['mcp-inspector.capture.json', 'mcp-inspector-cut-mid-event.capture.json'];
const pathOf = (name: string): string => join(FIXTURES_DIR, name);
const sessionsOf = (name: string) => analyze(parseCapture(readFileSync(pathOf(name), 'utf8'))).sessions;

describe.each(RECORDINGS)('the CLI on %s', (name) => {
  const sessions = sessionsOf(name);
  const relayed = sessions.filter((s) => s.relayed !== undefined);

  it('holds relayed sessions (the decoded backend exchanges), each carried by the /api/mcp/events stream', () => {
    expect(relayed.length).toBeGreaterThan(0);
    expect(relayed.every((s) => s.relayed?.via === 'mcp-inspector')).toBe(true);
  });

  it('text: the label under each relayed session header, with who relayed and on which connection', async () => {
    const { out } = await cli(['analyze', pathOf(name), '--fail-on', 'never']);
    const lines = out.split('\n');
    for (const session of relayed) {
      const header = lines.findIndex((l) => l.startsWith(`  session ${session.sessionId ?? '(no session)'}  `));
      expect(header).toBeGreaterThan(0);
      expect(lines[header + 1]).toBe(
        `    ${RELAYED_LABEL} (the MCP Inspector's backend, reported on ${session.relayed?.carrier} (/api/mcp/events))`,
      );
    }
    expect(lines.filter((l) => l.includes(RELAYED_LABEL))).toHaveLength(relayed.length);
  });

  it('json: relayed on each relayed session and on each of its connections', async () => {
    const report = JSON.parse((await cli(['analyze', pathOf(name), '--json', '--fail-on', 'never'])).out) as JsonReport;
    const expected = { via: 'mcp-inspector', label: RELAYED_LABEL };
    for (const session of relayed) {
      const json = report.sessions.find((s) => s.id === session.key);
      expect(json?.relayed).toEqual({ ...expected, carrier: session.relayed?.carrier });
      const connections = json?.streams.flatMap((s) => s.connections) ?? [];
      expect(connections.length).toBeGreaterThan(0);
      expect(connections.map((c) => c.relayed)).toEqual(
        connections.map(() => ({ ...expected, carrier: session.relayed?.carrier })),
      );
    }
  });

  it('junit: each relayed session is a testcase named with the label', async () => {
    const { out } = await cli(['analyze', pathOf(name), '--format', 'junit', '--fail-on', 'never']);
    for (const session of relayed) expect(out).toContain(`name="session ${session.key} (${RELAYED_LABEL})"`);
  });

  it('sarif and github: a finding of a relayed session says so, one of a direct session does not', () => {
    // The recordings are clean: one finding is stamped onto the relayed session and one onto no session.
    const inRelayed: Finding = {
      rule: 'unsolicited-response',
      severity: 'error',
      message: 'a planted finding',
      sessionKey: relayed[0]?.key ?? '',
    };
    const outside: Finding = { ...inRelayed, sessionKey: 'direct#1' };
    const keys = new Set(relayed.map((s) => s.key));
    const places = [{ kind: 'file' as const }, { kind: 'file' as const }];
    const sarif = toSarif([{ file: name, ok: true, findings: [inRelayed, outside], places, relayed: keys }], {
      rules,
      version: '0',
      helpUri: (id) => id,
      helpMarkdown: () => undefined,
    });
    const results = sarif.runs[0]?.results ?? [];
    expect(results.map((r) => [r.message.text, r.properties?.['relayed']])).toEqual([
      [`a planted finding [session ${RELAYED_LABEL}]`, RELAYED_LABEL],
      ['a planted finding', undefined],
    ]);
    expect(findingAnnotations(name, [inRelayed, outside], places, keys).split('\n').slice(0, 2)).toEqual([
      `::error file=${name},title=unsolicited-response::a planted finding [session ${RELAYED_LABEL}]`,
      `::error file=${name},title=unsolicited-response::a planted finding`,
    ]);
    const junit = toJunit(
      [{ file: name, ok: true, sessions: [...keys], findings: [inRelayed], places, relayed: keys }],
      'warning',
    );
    expect(junit).toContain(`name="session ${relayed[0]?.key} (${RELAYED_LABEL})"`);
  });
});

describe('a direct recording', () => {
  it('says nothing of a relay in any format', async () => {
    for (const format of [[], ['--json'], ['--format', 'junit'], ['--format', 'sarif'], ['--format', 'github']]) {
      const { out } = await cli(['analyze', clean, ...format, '--fail-on', 'never']);
      expect(out, format.join(' ')).not.toContain(RELAYED_LABEL);
    }
    const report = JSON.parse((await cli(['analyze', clean, '--json', '--fail-on', 'never'])).out) as JsonReport;
    expect(report.sessions.map((s) => s.relayed)).toEqual(report.sessions.map(() => null));
  });
});
