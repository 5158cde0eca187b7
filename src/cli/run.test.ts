import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importHar } from '../core/capture/har';
import { serializeCapture } from '../core/capture/format';
import { rules } from '../core/guard';
import type { Finding } from '../core/guard/types';
import { captureIo, cli } from './ci-formats.fixture';
import { findingsExitCode, run } from './run';
import { fixtureDir, fixtureEntries, fixtureSessionId } from '../core/fixtures-dir.fixture';
import { anthropicStream, openAiStream } from '../core/model/other-streams.fixture';

const torn = join(fixtureDir('cut-mid-event'), 'capture.har');
const tornChunks = join(fixtureDir('cut-mid-event'), 'chunks.ndjson');
const clean = join(fixtureDir('clean'), 'capture.har');
/** Facts of the cut-mid-event recording, read from the HAR itself. */
const tornEntries = fixtureEntries('cut-mid-event');
const tornSession = fixtureSessionId('cut-mid-event')!;
/** What the report names a session by: session ids are redacted unless --reveal-secrets (docs/redaction.md). */
const FIRST_ALIAS = 'redacted-session-1';
const cutEntry = tornEntries.find((e) => e.streamState === 'failed')!;
const resumeEntry = tornEntries.find((e) => e.requestHeaders['last-event-id'] !== undefined)!;
const tornAt = cutEntry.body.lastIndexOf('event: message\n');
const tornId = /^id: (.+)$/m.exec(cutEntry.body.slice(tornAt))![1]!;
const scratch = mkdtempSync(join(tmpdir(), 'msi-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function scratchFile(name: string, content: string | Uint8Array): string {
  const path = join(scratch, name);
  writeFileSync(path, content);
  return path;
}

/** A raw stream whose one event is cut JSON: an `incomplete-json` error. */
const brokenStream = scratchFile(
  'broken.sse',
  'id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}\n\n',
);

describe('exit codes for findings', () => {
  const finding = (severity: Finding['severity']): Finding => ({ rule: 'r', severity, message: 'm' });
  it.each([
    [['info'], 'error', 0],
    [['warning', 'info'], 'error', 0],
    [['error'], 'error', 1],
    [['warning'], 'warning', 1],
    [['info'], 'warning', 0],
    [['info'], 'info', 1],
    [[], 'info', 0],
    [['error'], 'never', 0],
  ] as const)('%j with --fail-on %s -> %i', (severities, failOn, code) => {
    expect(findingsExitCode(severities.map(finding), failOn)).toBe(code);
  });
});

describe('mcp-stream-inspector analyze', () => {
  it('reports the torn replay recording grouped by its session, with the rule summary and its doc page', async () => {
    const { code, out, err } = await cli(['analyze', torn, '--chunks', tornChunks]);
    expect(err).toBe('');
    expect(code).toBe(0); // a torn event that was discarded on resume: a warning, below the default --fail-on error
    expect(out).toContain(`session ${FIRST_ALIAS}  ${new URL(cutEntry.url).origin}  era 2025-11-25`);
    expect(out).not.toContain(tornSession);
    const held = Buffer.byteLength(cutEntry.body) - tornAt;
    expect(out).toContain(
      `⚠ warning torn-event-reconnect  ${cutEntry.id} ended holding ${held} bytes of an undispatched event with partial data (id ${tornId})`,
    );
    expect(out).toContain(
      `the client resumed the stream on ${resumeEntry.id} with Last-Event-ID ${resumeEntry.requestHeaders['last-event-id']}.`,
    );
    expect(out).toMatch(
      new RegExp(`stream s\\d+, connection ${cutEntry.id}, event id ${tornId}, byte ${tornAt}, \\+[\\d,.]+ ms`),
    );
    const tornRule = rules.find((r) => r.id === 'torn-event-reconnect')!;
    expect(out).toContain(tornRule.summary);
    const docLine = /docs: (\S+torn-event-reconnect\.md)/.exec(out);
    expect(docLine).not.toBeNull();
    expect(existsSync(docLine![1]!)).toBe(true);
    expect(out.trimEnd().split('\n').at(-1)).toBe('0 errors, 1 warning, 0 info');
    expect(out).not.toContain('\u001b[');
  });

  it('--fail-on decides the exit code', async () => {
    expect((await cli(['analyze', torn, '--fail-on', 'warning'])).code).toBe(1);
    expect((await cli(['analyze', torn, '--fail-on=info'])).code).toBe(1);
    expect((await cli(['analyze', clean, '--fail-on', 'info'])).code).toBe(0);
    expect((await cli(['analyze', brokenStream])).code).toBe(1);
    expect((await cli(['analyze', brokenStream, '--fail-on', 'never'])).code).toBe(0);
  });

  it('--json prints one stable document for one file (--reveal-secrets: the real session id)', async () => {
    const { code, out } = await cli(['analyze', '--json', torn, '--chunks', tornChunks, '--reveal-secrets']);
    expect(code).toBe(0);
    const doc = JSON.parse(out);
    expect(Object.keys(doc)).toEqual(['findings', 'sessions', 'otherStreams', 'notices']);
    expect(doc.findings.map((f: Finding) => f.rule)).toEqual(['torn-event-reconnect']);
    const [session] = doc.sessions;
    expect(session).toMatchObject({ id: tornSession, era: '2025-11-25', idScheme: 'sdk-stream' });
    const resumed = session.streams.find((s: { id: string }) => s.id === doc.findings[0].streamId);
    // The client closed the resumed GET after its answer: the SDK server keeps a resumed stream open.
    expect(
      resumed.connections.map((c: { id: string; resumes: string | null; end: string }) => [c.id, c.resumes, c.end]),
    ).toEqual([
      [cutEntry.id, null, 'network-error'],
      [resumeEntry.id, cutEntry.id, 'aborted'],
    ]);
    expect(resumed.connections[1].lastEventIdSent).toBe(resumeEntry.requestHeaders['last-event-id']);
    const priming = resumed.events[0];
    expect(priming).toEqual({ type: 'message', data: '', lastEventId: priming.id, id: priming.id, retry: 150 });
    // The torn event comes again whole under its id, right after the event the cursor names.
    const ids = resumed.events.map((e: { id?: string }) => e.id);
    expect(ids.indexOf(tornId)).toBe(ids.indexOf(resumed.connections[1].lastEventIdSent) + 1);
    expect(ids.filter((id: string) => id === tornId)).toHaveLength(1);
  });

  it('absurd values and a string version: exit 2 with the precise problem at its path', async () => {
    const doc = JSON.parse(readFileSync(torn, 'utf8')) as {
      log: { entries: Record<string, Record<string, unknown>>[] };
    };
    doc.log.entries[0]!.response!.status = 99999;
    const status = scratchFile('status.har', JSON.stringify(doc));
    const version = scratchFile(
      'version.json',
      '{"format": "mcp-stream-inspector/capture", "version": "1", "tool": {"name": "x", "version": "1"}, "createdAt": 0, "connections": []}',
    );
    for (const [file, message] of [
      [status, 'log.entries[0].response.status: 99999 is not an HTTP status (100 to 599; 0: none)'],
      [version, 'version: capture version is the string "1", not the number 1; write it as 1'],
    ] as const) {
      const { code, err } = await cli(['analyze', file]);
      expect(code).toBe(2);
      expect(err).toBe(`mcp-stream-inspector: ${file}: ${message}\n`);
    }
  });

  it('several files: each reported, an unreadable one explained on stderr, exit 2, nothing lost', async () => {
    const missing = join(scratch, 'nope.har');
    const truncated = scratchFile('truncated.har', readFileSync(torn, 'utf8').slice(0, 3000));
    const { code, out, err } = await cli(['analyze', clean, missing, truncated, brokenStream]);
    expect(code).toBe(2);
    expect(err).toContain(`mcp-stream-inspector: ${missing}: cannot read: ENOENT`);
    expect(err).toContain(
      `mcp-stream-inspector: ${truncated}: the file ends inside log.entries[0] (HAR entry 1) at byte 3000: it was cut short`,
    );
    expect(out).toContain(`${clean}\n  session ${FIRST_ALIAS}`);
    expect(out).toContain(`${brokenStream}\n`);
    expect(out).toMatch(/✖ error {3}incomplete-json/);
    expect(out.trimEnd().split('\n').at(-1)).toBe(
      'total over 4 files (2 could not be read): 1 error, 0 warnings, 0 info',
    );
  });

  it('several files with --json: {"files": [...]}, errors in place', async () => {
    const notJson = scratchFile('other.json', '{"hello": 1}');
    const { code, out } = await cli(['analyze', '--json', clean, notJson]);
    expect(code).toBe(2);
    const doc = JSON.parse(out);
    expect(doc.files.map((f: { file: string }) => f.file)).toEqual([clean, notJson]);
    expect(Object.keys(doc.files[0])).toEqual(['file', 'findings', 'sessions', 'otherStreams', 'notices']);
    expect(out).toBe(`${JSON.stringify(doc, null, 2)}\n`); // streamed, yet the same text as one stringify
    expect(doc.files[1]).toEqual({
      file: notJson,
      error: {
        path: '',
        message:
          'a JSON object that is neither an mcp-stream-inspector capture (no "format" field) nor a HAR (no "log" field)',
      },
    });
  });

  it('--json with one unreadable file prints nothing on stdout and exits 2', async () => {
    const { code, out, err } = await cli(['analyze', '--json', join(scratch, 'missing.json')]);
    expect([code, out]).toEqual([2, '']);
    expect(err).toContain('missing.json: cannot read: ENOENT');
  });

  it('reads capture v1 files and gives the same findings as the HAR they came from', async () => {
    const capture = importHar(readFileSync(torn, 'utf8'), { chunksNdjson: readFileSync(tornChunks, 'utf8') });
    const file = scratchFile('torn.capture.json', serializeCapture(capture));
    const fromCapture = JSON.parse((await cli(['analyze', '--json', file])).out);
    const fromHar = JSON.parse((await cli(['analyze', '--json', torn, '--chunks', tornChunks])).out);
    expect(fromCapture).toEqual(fromHar);
  });

  it('names the chunks file when the companion is what is wrong', async () => {
    const badChunks = scratchFile('bad.ndjson', '{"type":"chunk","entry":99,"t":"2026-01-01T00:00:00Z"}\n');
    const { code, err } = await cli(['analyze', torn, '--chunks', badChunks]);
    expect(code).toBe(2);
    expect(err).toBe(
      `mcp-stream-inspector: ${badChunks} (chunks for ${torn}): line 1.entry: entry 99 does not exist (the HAR has ${tornEntries.length} entries)\n`,
    );
    const absent = await cli(['analyze', torn, '--chunks', join(scratch, 'absent.ndjson')]);
    expect(absent.code).toBe(2);
    expect(absent.err).toContain('absent.ndjson: cannot read: ENOENT');
  });

  it('LLM completion streams saved with curl -N are other streams: listed, no finding, exit 0', async () => {
    const openAi = scratchFile('openai.sse', openAiStream().join(''));
    const anthropic = scratchFile('anthropic.sse', anthropicStream().join(''));
    const { code, out } = await cli(['analyze', openAi, anthropic, '--fail-on', 'info']);
    expect(code).toBe(0);
    expect(out).toContain(`${openAi}\n  no MCP traffic found\n  1 other stream (not MCP, not judged)\n`);
    expect(out).toContain(
      `    GET file://${openAi}  200  6 events  openai-chat  SSE events whose data is not JSON-RPC`,
    );
    expect(out).toContain('8 events  anthropic-messages');
    expect(out).not.toContain('incomplete-json');
  });

  it('colours the report when asked', async () => {
    const c = captureIo(true);
    await run(['analyze', brokenStream], c.io);
    expect(c.out()).toContain('\u001b[31m✖ error  \u001b[39m');
  });
});

describe('usage, rules, help, version', () => {
  it('usage errors exit 2 with a hint on stderr', async () => {
    for (const argv of [[], ['analyze'], ['analyze', 'a', '--fail-on', 'fatal'], ['frobnicate']]) {
      const { code, out, err } = await cli(argv);
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err).toMatch(/^mcp-stream-inspector: .+\nRun "mcp-stream-inspector --help" for usage\.\n$/);
    }
  });

  it('rules lists every registered rule with its severity and summary', async () => {
    const { code, out } = await cli(['rules']);
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id +severity +summary$/);
    expect(lines).toHaveLength(rules.length + 1);
    for (const rule of rules)
      expect(lines.some((l) => l.startsWith(rule.id) && l.includes(rule.severity) && l.endsWith(rule.summary))).toBe(
        true,
      );
    const json = JSON.parse((await cli(['rules', '--json'])).out);
    expect(json.map((r: { id: string }) => r.id)).toEqual(rules.map((r) => r.id));
  });

  it('--help and --version', async () => {
    expect((await cli(['--help'])).out).toContain('mcp-stream-inspector analyze <file>...');
    const version = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')).version;
    expect(await cli(['--version'])).toEqual({ code: 0, out: `${version}\n`, err: '' });
  });
});
