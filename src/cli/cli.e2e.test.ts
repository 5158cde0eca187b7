// End to end: the installed bin shim running the built CLI (dist/node/cli.js) as a user would.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureDir, fixtureSessionId } from '../core/fixtures-dir.fixture';
import { ensureBuiltCli, PACKAGE_ROOT as root } from './built-cli.fixture';

const example = fixtureDir('cut-mid-event');

beforeAll(ensureBuiltCli, 120_000);

describe('node bin/mcp-stream-inspector.js', () => {
  it('analyzes a HAR to JSON with --fail-on, and reports a bad file on stderr with exit 2', () => {
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, ['bin/mcp-stream-inspector.js', ...args], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });

    const json = cli(
      'analyze',
      '--json',
      '--fail-on',
      'warning',
      join(example, 'capture.har'),
      '--chunks',
      join(example, 'chunks.ndjson'),
    );
    expect(json.stderr).toBe('');
    expect(json.status).toBe(1);
    const doc = JSON.parse(json.stdout);
    expect(doc.findings.map((f: { rule: string }) => f.rule)).toContain('torn-event-reconnect');
    expect(doc.sessions[0].id).toBe('redacted-session-1');
    expect(json.stdout).not.toContain(fixtureSessionId('cut-mid-event'));

    const human = cli('analyze', join(example, 'capture.har'), join(example, 'expected.json'));
    expect(human.status).toBe(2);
    expect(human.stderr).toContain('expected.json: a JSON object that is neither an mcp-stream-inspector capture');
    expect(human.stdout).toMatch(/docs: \/.+\/src\/core\/guard\/rules\/torn-event-reconnect\.md/);
  });

  it('output piped into a reader that stops early (| head): a quiet exit, no EPIPE stack trace', async () => {
    // SARIF carries every rule's doc page: far more than a pipe's buffer, so writes go on after the reader left.
    const child = spawn(
      process.execPath,
      ['bin/mcp-stream-inspector.js', 'analyze', '--format', 'sarif', join(example, 'capture.har')],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const first = await new Promise<Buffer>((resolve) => child.stdout.once('data', resolve));
    child.stdout.destroy(); // what head does once it has its lines
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(first.toString()).toMatch(/^\{/);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
