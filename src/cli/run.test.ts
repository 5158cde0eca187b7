import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importHar } from '../core/capture/har';
import { serializeCapture } from '../core/capture/format';
import { rules } from '../core/guard';
import type { Finding } from '../core/guard/types';
import { nodeIo } from './node-io';
import { findingsExitCode, run, type CliIo } from './run';
import { EXAMPLES_DIR } from '../core/examples-dir.fixture';

const testdata = EXAMPLES_DIR;
const torn = join(testdata, 'torn-replay-boundary-sdk-inmemory/capture.har');
const tornChunks = join(testdata, 'torn-replay-boundary-sdk-inmemory/chunks.ndjson');
const clean = join(testdata, 'clean-control-sdk-inmemory/capture.har');
const scratch = mkdtempSync(join(tmpdir(), 'msi-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function scratchFile(name: string, content: string | Uint8Array): string {
  const path = join(scratch, name);
  writeFileSync(path, content);
  return path;
}

/** A raw stream whose one event is cut JSON: an `incomplete-json` error. */
const brokenStream = scratchFile('broken.sse', 'id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}\n\n');

interface Captured {
  io: CliIo;
  out: () => string;
  err: () => string;
}

/** The real Node io (files, doc paths, version) with stdout and stderr captured. */
function captureIo(color = false): Captured {
  let out = '';
  let err = '';
  const io: CliIo = {
    ...nodeIo(),
    readFile: (path) => readFile(path),
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    color,
  };
  return { io, out: () => out, err: () => err };
}

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const c = captureIo();
  const code = await run(argv, c.io);
  return { code, out: c.out(), err: c.err() };
}

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
  it('reports the torn replay example grouped by its session, with the rule summary and its doc page', async () => {
    const { code, out, err } = await cli(['analyze', torn, '--chunks', tornChunks]);
    expect(err).toBe('');
    expect(code).toBe(0); // the torn event was cut before its data: a warning, below the default --fail-on error
    expect(out).toContain('session 03c88ff5-0b23-4104-89ee-93da8277702f  http://127.0.0.1:44219  era 2025-11-25');
    expect(out).toMatch(/⚠ warning torn-event-reconnect {2}e4 ended holding 60 bytes/);
    expect(out).toContain('stream s3, connection e4, byte 520, +1080.');
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

  it('--json prints one stable document for one file', async () => {
    const { code, out } = await cli(['analyze', '--json', torn, '--chunks', tornChunks]);
    expect(code).toBe(0);
    const doc = JSON.parse(out);
    expect(Object.keys(doc)).toEqual(['findings', 'sessions']);
    expect(doc.findings.map((f: Finding) => f.rule)).toEqual(['torn-event-reconnect']);
    const [session] = doc.sessions;
    expect(session).toMatchObject({ id: '03c88ff5-0b23-4104-89ee-93da8277702f', era: '2025-11-25', idScheme: 'sdk-stream' });
    const resumed = session.streams.find((s: { id: string }) => s.id === 's3');
    expect(resumed.connections.map((c: { id: string; resumes: string | null; end: string }) => [c.id, c.resumes, c.end])).toEqual([
      ['e4', null, 'network-error'],
      ['e5', 'e4', 'complete'],
    ]);
    expect(resumed.connections[1].lastEventIdSent).toBe('db173ed2-2e82-456d-a2d1-76c55b64efeb_1795967688811_ukzql3ku');
    const priming = resumed.events[0];
    expect(priming).toEqual({ type: 'message', data: '', lastEventId: priming.id, id: priming.id });
  });

  it('several files: each reported, an unreadable one explained on stderr, exit 2, nothing lost', async () => {
    const missing = join(scratch, 'nope.har');
    const truncated = scratchFile('truncated.har', readFileSync(torn, 'utf8').slice(0, 3000));
    const { code, out, err } = await cli(['analyze', clean, missing, truncated, brokenStream]);
    expect(code).toBe(2);
    expect(err).toContain(`mcp-stream-inspector: ${missing}: cannot read: ENOENT`);
    expect(err).toContain(`mcp-stream-inspector: ${truncated}: malformed JSON at end of input (character 3000)`);
    expect(out).toContain(`${clean}\n  session cd2cae06-d086-4064-b725-2fe6026162b1`);
    expect(out).toContain(`${brokenStream}\n`);
    expect(out).toMatch(/✖ error {3}incomplete-json/);
    expect(out.trimEnd().split('\n').at(-1)).toBe('total over 4 files (2 could not be read): 1 error, 0 warnings, 0 info');
  });

  it('several files with --json: {"files": [...]}, errors in place', async () => {
    const notJson = scratchFile('other.json', '{"hello": 1}');
    const { code, out } = await cli(['analyze', '--json', clean, notJson]);
    expect(code).toBe(2);
    const doc = JSON.parse(out);
    expect(doc.files.map((f: { file: string }) => f.file)).toEqual([clean, notJson]);
    expect(Object.keys(doc.files[0])).toEqual(['file', 'findings', 'sessions']);
    expect(out).toBe(`${JSON.stringify(doc, null, 2)}\n`); // streamed, yet the same text as one stringify
    expect(doc.files[1]).toEqual({
      file: notJson,
      error: { path: '', message: 'a JSON object that is neither an mcp-stream-inspector capture (no "format" field) nor a HAR (no "log" field)' },
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
    expect(err).toBe(`mcp-stream-inspector: ${badChunks} (chunks for ${torn}): line 1.entry: entry 99 does not exist (the HAR has 6 entries)\n`);
    const absent = await cli(['analyze', torn, '--chunks', join(scratch, 'absent.ndjson')]);
    expect(absent.code).toBe(2);
    expect(absent.err).toContain('absent.ndjson: cannot read: ENOENT');
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
    for (const rule of rules) expect(lines.some((l) => l.startsWith(rule.id) && l.includes(rule.severity) && l.endsWith(rule.summary))).toBe(true);
    const json = JSON.parse((await cli(['rules', '--json'])).out);
    expect(json.map((r: { id: string }) => r.id)).toEqual(rules.map((r) => r.id));
  });

  it('--help and --version', async () => {
    expect((await cli(['--help'])).out).toContain('mcp-stream-inspector analyze <file>...');
    const version = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')).version;
    expect(await cli(['--version'])).toEqual({ code: 0, out: `${version}\n`, err: '' });
  });
});
