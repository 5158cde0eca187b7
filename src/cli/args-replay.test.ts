// Runs in Node (vitest): the replay command's arguments and their errors.
import { describe, expect, it } from 'vitest';
import { HELP, parseArgs } from './args';

const replay = (...args: string[]) => parseArgs(['replay', ...args]);

describe('parseArgs replay', () => {
  it('defaults: a free port, speed 1, no fault, no recording', () => {
    expect(replay('bug.har')).toEqual({
      ok: true,
      command: { kind: 'replay', file: 'bug.har', port: 0, speed: 1, faults: [] },
    });
  });

  it('takes every option, several --fault in order', () => {
    const parsed = replay(
      'c.json',
      '--port=8812',
      '--speed',
      '0',
      '--fault',
      'cut-mid-event:60',
      '--fault=resume-silent',
    );
    expect(parsed).toMatchObject({
      ok: true,
      command: { port: 8812, speed: 0, faults: [{ kind: 'cut-mid-event' }, { kind: 'resume-silent' }] },
    });
    expect(replay('x.har', '--chunks', 'chunks.ndjson', '--record', 'out.json', '--speed', '2.5')).toMatchObject({
      ok: true,
      command: { chunks: 'chunks.ndjson', record: 'out.json', speed: 2.5 },
    });
  });

  it.each([
    [[], 'replay needs a capture file or HAR to serve'],
    [['a.har', 'b.har'], 'replay serves one capture file or HAR, got 2'],
    [
      ['a.har', '--speed', 'fast'],
      '--speed "fast" is not a speed: a number, 1 as recorded, 2 twice as fast, 0 as fast as possible',
    ],
    [
      ['a.har', '--speed', '-1'],
      '--speed "-1" is not a speed: a number, 1 as recorded, 2 twice as fast, 0 as fast as possible',
    ],
    [['a.har', '--port', '70000'], '--port "70000" is not a port number (0 to 65535; 0 picks a free one)'],
    [['a.har', '--record', 'out.txt'], '--record "out.txt" must end in .har (HAR 1.2) or .json (the capture format)'],
    [['a.har', '--fault', 'cut-everything'], '--fault "cut-everything": '],
    [['a.har', '--host', '0.0.0.0'], 'unknown option --host for replay'],
    [['a.har', '--speed'], '--speed needs a value'],
  ])('refuses %j', (args, error) => {
    const parsed = replay(...args);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.error).toMatch(error);
  });

  it('is in the help', () => {
    expect(HELP).toContain(
      'mcp-stream-inspector replay <capture.json|file.har> [--port N] [--speed F] [--fault SPEC]...',
    );
  });
});
