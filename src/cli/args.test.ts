import { describe, expect, it } from 'vitest';
import { parseArgs } from './args';

describe('parseArgs', () => {
  it('analyze with defaults', () => {
    expect(parseArgs(['analyze', 'a.har'])).toEqual({
      ok: true,
      command: { kind: 'analyze', files: ['a.har'], format: 'text', failOn: 'error' },
    });
  });

  it('analyze with every option, in both --flag value and --flag=value forms', () => {
    expect(parseArgs(['analyze', '--json', 'a.har', '--fail-on', 'warning', '--chunks=c.ndjson'])).toEqual({
      ok: true,
      command: { kind: 'analyze', files: ['a.har'], format: 'json', failOn: 'warning', chunks: 'c.ndjson' },
    });
    expect(parseArgs(['analyze', '--fail-on=never', 'a', 'b', '-'])).toMatchObject({
      command: { files: ['a', 'b', '-'], failOn: 'never' },
    });
  });

  it('--format picks the report; --json is --format json', () => {
    for (const format of ['text', 'json', 'sarif', 'junit', 'github'] as const) {
      expect(parseArgs(['analyze', 'a', '--format', format])).toMatchObject({ ok: true, command: { format } });
    }
    expect(parseArgs(['analyze', 'a', '--format=sarif'])).toMatchObject({ command: { format: 'sarif' } });
    expect(parseArgs(['analyze', 'a', '--json', '--format', 'json'])).toMatchObject({ command: { format: 'json' } });
  });

  it('"--" ends the options, so a file may start with a dash', () => {
    expect(parseArgs(['analyze', '--', '--json'])).toMatchObject({ command: { files: ['--json'], format: 'text' } });
  });

  it('-h after "--" is a file, not a request for help', () => {
    expect(parseArgs(['analyze', '--', '-h'])).toEqual({
      ok: true,
      command: { kind: 'analyze', files: ['-h'], format: 'text', failOn: 'error' },
    });
  });

  it('--reveal-secrets keeps credentials and session ids in what analyze prints (redacted by default)', () => {
    expect(parseArgs(['analyze', 'a.har', '--reveal-secrets'])).toEqual({
      ok: true,
      command: { kind: 'analyze', files: ['a.har'], format: 'text', failOn: 'error', revealSecrets: true },
    });
    expect(parseArgs(['analyze', 'a.har'])).not.toHaveProperty('command.revealSecrets');
    expect(parseArgs(['analyze', 'a', '--reveal-secrets=yes'])).toEqual({
      ok: false,
      error: 'unknown option --reveal-secrets=yes for analyze',
    });
  });

  it('the silence thresholds, in seconds, for analyze and proxy; a bad value is named', () => {
    const parsed = parseArgs([
      'analyze',
      'a.har',
      '--hang-after',
      '2.5',
      '--idle-cut-after=3',
      '--buffered-after',
      '1',
    ]);
    expect(parsed).toMatchObject({
      ok: true,
      command: { silence: { hangMs: 2500, idleCutMs: 3000, bufferedWaitMs: 1000 } },
    });
    expect(parseArgs(['proxy', 'http://127.0.0.1:3000/mcp', '--hang-after', '10'])).toMatchObject({
      ok: true,
      command: { kind: 'proxy', silence: { hangMs: 10_000 } },
    });
    expect(parseArgs(['analyze', 'a.har', '--hang-after', 'soon'])).toEqual({
      ok: false,
      error: '--hang-after needs a number of seconds greater than 0 (e.g. --hang-after 30), got "soon"',
    });
    expect(parseArgs(['analyze', 'a.har', '--idle-cut-after', '0'])).toMatchObject({ ok: false });
    expect(parseArgs(['analyze', 'a.har', '--buffered-after'])).toMatchObject({ ok: false });
  });

  it('a value that starts with a dash is still the value', () => {
    expect(parseArgs(['analyze', 'a', '--chunks', '-'])).toMatchObject({ command: { files: ['a'], chunks: '-' } });
    expect(parseArgs(['analyze', 'a', '--fail-on', '--json'])).toEqual({
      ok: false,
      error: '--fail-on "--json" is not one of error, warning, info, never',
    });
  });

  it('rules, help and version', () => {
    expect(parseArgs(['rules'])).toEqual({ ok: true, command: { kind: 'rules', json: false } });
    expect(parseArgs(['rules', '--json'])).toEqual({ ok: true, command: { kind: 'rules', json: true } });
    expect(parseArgs(['--help'])).toEqual({ ok: true, command: { kind: 'help' } });
    expect(parseArgs(['analyze', 'x', '-h'])).toEqual({ ok: true, command: { kind: 'help' } });
    expect(parseArgs(['--version'])).toEqual({ ok: true, command: { kind: 'version' } });
  });

  it.each([
    [[], 'no command given'],
    [['inspect'], 'unknown command "inspect"'],
    [['--verbose'], 'unknown option --verbose'],
    [['analyze'], 'analyze needs at least one file'],
    [['analyze', 'a', '--fail-on'], '--fail-on needs a value: error, warning, info or never'],
    [['analyze', 'a', '--fail-on', 'fatal'], '--fail-on "fatal" is not one of error, warning, info, never'],
    [['analyze', 'a', '--chunks'], '--chunks needs a file (chunks.ndjson)'],
    [['analyze', 'a', 'b', '--chunks', 'c'], '--chunks applies to a single HAR file'],
    [['analyze', 'a', '--format'], '--format needs a value: text, json, sarif, junit, github'],
    [['analyze', 'a', '--format', 'xml'], '--format "xml" is not one of text, json, sarif, junit, github'],
    [['analyze', 'a', '--json', '--format', 'sarif'], '--json contradicts --format sarif'],
    [['analyze', 'a', '--jsn'], 'unknown option --jsn for analyze'],
    [['analyze', 'a', '--json=yes'], 'unknown option --json=yes for analyze'],
    [['analyze', 'a', '-jx'], 'unknown option -jx for analyze'],
    [
      ['analyze', 'a', '--fail-on', 'warning', '--fail-on=fatal'],
      '--fail-on "fatal" is not one of error, warning, info, never',
    ],
    [['rules', 'x'], 'unexpected argument x for rules'],
    [['rules', '--'], 'unexpected argument -- for rules'],
    [['rules', '--json=1'], 'unexpected argument --json=1 for rules'],
    [['--version', 'x'], 'unknown option --version'],
  ])('%j is a usage error: %s', (argv, error) => {
    expect(parseArgs(argv)).toEqual({ ok: false, error });
  });
});
