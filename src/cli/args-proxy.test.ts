// Runs in Node (vitest): the proxy command's arguments, and every way a --fault spec can be refused.
import { describe, expect, it } from 'vitest';
import { FAULT_SYNTAX } from '../core/fault/spec';
import { HELP, parseArgs } from './args';

const proxy = (...args: string[]) => parseArgs(['proxy', 'http://127.0.0.1:3000/mcp', ...args]);

describe('parseArgs proxy', () => {
  it('defaults: 127.0.0.1, a free port, no fault, no recording', () => {
    const parsed = proxy();
    expect(parsed).toMatchObject({ ok: true, command: { kind: 'proxy', host: '127.0.0.1', port: 0, faults: [] } });
    expect(parsed.ok && parsed.command.kind === 'proxy' && parsed.command.upstream.href).toBe(
      'http://127.0.0.1:3000/mcp',
    );
  });

  it('takes every option, several --fault in order', () => {
    const parsed = proxy(
      '--port=8811',
      '--host',
      '0.0.0.0',
      '--fault',
      'cut-mid-event:60',
      '--fault=restart-epoch',
      '--record',
      'r.har',
    );
    expect(parsed).toMatchObject({
      ok: true,
      command: {
        port: 8811,
        host: '0.0.0.0',
        record: 'r.har',
        faults: [
          { kind: 'cut-mid-event', at: { dataBytes: 60 }, match: { method: 'tools/call' }, every: false },
          { kind: 'restart-epoch', every: false },
        ],
      },
    });
  });

  it('refuses what it cannot run, saying what would be right', () => {
    const refused: [string[], string][] = [
      [['proxy'], 'proxy needs the upstream URL'],
      [['proxy', 'a', 'b'], 'proxy takes one upstream URL, got 2'],
      [['proxy', 'ftp://x/mcp'], 'the upstream "ftp://x/mcp" is not an http:// or https:// URL'],
      [['proxy', 'u', '--port', '70000'], '--port "70000" is not a port number (0 to 65535; 0 picks a free one)'],
      [
        ['proxy', 'http://h/mcp', '--record', 'out.txt'],
        '--record "out.txt" must end in .har (HAR 1.2) or .json (the capture format)',
      ],
      [['proxy', 'http://h/mcp', '--fault'], '--fault needs a value'],
      [['proxy', 'http://h/mcp', '--faults', 'x'], 'unknown option --faults for proxy'],
    ];
    for (const [argv, error] of refused) expect(parseArgs(argv), argv.join(' ')).toEqual({ ok: false, error });
  });

  it('refuses a bad --fault spec precisely', () => {
    const refused: [string, string][] = [
      ['', `a fault is needed, one of ${FAULT_SYNTAX.join(', ')}`],
      ['explode', `unknown fault "explode"; known: ${FAULT_SYNTAX.join(', ')}`],
      ['cut-mid-event:x', 'BYTES "x" must be a whole number >= 0'],
      ['cut-mid-event:', 'BYTES "" must be a whole number >= 0'],
      ['cut-at-boundary:0', 'EVENTS "0" must be a whole number >= 1'],
      ['drop-first-replayed:-1', 'EVENTS "-1" must be a whole number >= 1'],
      ['resume-status', 'resume-status needs a status: resume-status:400, resume-status:404, resume-status:409'],
      ['resume-status:500', 'resume-status needs a status: resume-status:400, resume-status:404, resume-status:409'],
      ['replay-cursor:2', 'replay-cursor takes no value (got ":2")'],
      ['resume-silent:1', 'resume-silent takes no value (got ":1")'],
      ['close-resumes:1', 'close-resumes takes no value (got ":1")'],
      ['restart-epoch:a:b', 'EPOCH "a:b" must be 1 to 32 letters, digits, "-" or "_" (no ":")'],
      ['delay', 'MS is needed (a whole number >= 1)'],
      ['delay:0', 'MS "0" must be a whole number >= 1'],
      ['cut-mid-event@sometimes', '"@sometimes" is not a suffix; the only one is @every'],
      ['cut-at-boundary,method=initialize', 'faults never strike the initialize exchange (,method=initialize)'],
      ['cut-at-boundary,method=', 'method= needs a JSON-RPC method name, e.g. ,method=tools/call'],
      ['cut-at-boundary,tool=x', 'unknown option "tool=x"; the only one is ,method=NAME'],
      [
        'replay-cursor,method=tools/call',
        'replay-cursor strikes the first resume after a cut, not a request: ,method= applies to cut-mid-event, cut-at-boundary, delay, buffer, stall, idle-cut, inject-server-request, set-header, add-event-ids and rewrite-response-id',
      ],
      ['add-event-ids:-1', 'RETRY_MS "-1" must be a whole number >= 0'],
      ['rewrite-response-id:7', 'rewrite-response-id takes no value (got ":7")'],
    ];
    for (const [spec, error] of refused) {
      expect(proxy('--fault', spec), spec).toEqual({ ok: false, error: `--fault ${JSON.stringify(spec)}: ${error}` });
    }
  });

  it('reads close-resumes as striking every resume, with or without @every', () => {
    for (const spec of ['close-resumes', 'close-resumes@every'])
      expect(proxy('--fault', spec), spec).toMatchObject({
        command: { faults: [{ kind: 'close-resumes', every: true, spec }] },
      });
  });

  it('reads @every and ,method= on the faults that strike requests', () => {
    expect(proxy('--fault', 'cut-at-boundary:3@every,method=tools/list')).toMatchObject({
      command: {
        faults: [{ kind: 'cut-at-boundary', after: { count: 3 }, every: true, match: { method: 'tools/list' } }],
      },
    });
    expect(proxy('--fault', 'delay:250,method=resources/read')).toMatchObject({
      command: { faults: [{ kind: 'delay', ms: 250, match: { method: 'resources/read' } }] },
    });
    expect(
      proxy('--fault', 'add-event-ids:1000@every', '--fault', 'rewrite-response-id,method=prompts/get'),
    ).toMatchObject({
      command: {
        faults: [
          { kind: 'add-event-ids', retryMs: 1000, every: true, match: { method: 'tools/call' } },
          { kind: 'rewrite-response-id', every: false, match: { method: 'prompts/get' } },
        ],
      },
    });
  });

  it('the help lists every fault', () => {
    for (const syntax of FAULT_SYNTAX) for (const part of syntax.split('|')) expect(HELP).toContain(part);
  });
});
