// `--format github`: workflow-command lines, escaped as GitHub's runner reads them back.
import { describe, expect, it } from 'vitest';
import { RAW_WITH_HEAD, cli, refused, scratchFolder } from './ci-formats.fixture';
import { escapeData, escapeProperty, workflowCommand } from './github-report';

/** How the runner decodes a command's message and property values. */
const unescape = (value: string) =>
  value.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');

const COMMAND = /^::(error|warning|notice) ((?:[a-z]+=[^,:]*)(?:,[a-z]+=[^,:]*)*)::(.*)$/;

function parse(line: string): { level: string; properties: Record<string, string>; message: string } {
  const match = COMMAND.exec(line);
  expect(match, line).not.toBeNull();
  const properties = Object.fromEntries(
    match![2]!.split(',').map((p) => [p.slice(0, p.indexOf('=')), unescape(p.slice(p.indexOf('=') + 1))]),
  );
  return { level: match![1]!, properties, message: unescape(match![3]!) };
}

const scratch = scratchFolder();

describe('--format github', () => {
  it('one annotation per finding: level by severity, the file, the rule as title', async () => {
    const { code, out } = await cli(['analyze', '--format', 'github', refused]);
    expect(code).toBe(1);
    const lines = out.trimEnd().split('\n').map(parse);
    expect(lines.map((l) => l.level)).toEqual(['error', 'notice', 'warning', 'notice', 'error']);
    expect(lines.map((l) => l.properties.title)).toEqual([
      'session-not-reinitialized',
      'resumption-rejected',
      'stale-cursor-retry',
      'resumption-rejected',
      'unanswered-after-disconnect',
    ]);
    for (const l of lines) expect(l.properties.file).toBe(refused);
    expect(lines[1]?.message).toMatch(
      /^resume of 5 refused with 404 Not Found\. \(HAR entry 6, connection e6, line \d+\)$/,
    );
    expect(lines[1]?.message).toContain(`line ${lines[1]?.properties.line})`);
  });

  it('a raw stream finding names its line', async () => {
    const raw = scratch('cut, with: punctuation.sse', RAW_WITH_HEAD);
    const { out } = await cli(['analyze', '--format', 'github', raw]);
    const [annotation] = out.trimEnd().split('\n').map(parse);
    expect(annotation?.properties).toEqual({ file: raw, line: '4', title: 'incomplete-json' });
    expect(annotation?.message).toMatch(/\(byte 52, line 4\)$/);
  });

  it('an unreadable file is an error annotation, exit 2', async () => {
    const missing = scratch('x', '').replace(/x$/, 'missing.har');
    const { code, out } = await cli(['analyze', '--format', 'github', missing]);
    expect(code).toBe(2);
    expect(parse(out.trimEnd())).toMatchObject({ level: 'error', properties: { file: missing } });
  });

  it('escapes %, CR and LF in the message, and : and , in properties too', () => {
    expect(escapeData('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext: a, b');
    expect(escapeProperty('a:b,c%d\ne')).toBe('a%3Ab%2Cc%25d%0Ae');
    const line = workflowCommand(
      'warning',
      [
        ['file', 'x:y,z.har'],
        ['title', 'r'],
      ],
      'm%0A stays literal\nsecond',
    );
    expect(line).toBe('::warning file=x%3Ay%2Cz.har,title=r::m%250A stays literal%0Asecond\n');
    expect(parse(line.trimEnd())).toEqual({
      level: 'warning',
      properties: { file: 'x:y,z.har', title: 'r' },
      message: 'm%0A stays literal\nsecond',
    });
  });
});

describe('--format usage', () => {
  it('an unknown format is a usage error: exit 2, said on stderr, nothing on stdout', async () => {
    const { code, out, err } = await cli(['analyze', refused, '--format', 'xml']);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.split('\n')[0]).toBe(
      'mcp-stream-inspector: --format "xml" is not one of text, json, sarif, junit, github',
    );
  });

  it('--json and --format json print the same document', async () => {
    const alias = await cli(['analyze', refused, '--json']);
    expect((await cli(['analyze', refused, '--format', 'json'])).out).toBe(alias.out);
    expect(JSON.parse(alias.out).findings).toHaveLength(5);
  });
});
