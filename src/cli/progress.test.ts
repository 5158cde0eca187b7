import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { captureIo, refused } from './ci-formats.fixture';
import type { ProgressTerminal } from './io';
import { readingLine } from './progress';
import { run } from './run';

/** A terminal of 200 columns whose clock advances 150 ms at each look: every progress call may draw. */
function terminal(): { terminal: ProgressTerminal; written: string[] } {
  const written: string[] = [];
  let clock = 0;
  return { terminal: { columns: 200, write: (text) => void written.push(text), now: () => (clock += 150) }, written };
}

/** The file in 4 KiB pieces, so that reading it takes many steps. */
async function* smallPieces(path: string): AsyncGenerator<Uint8Array> {
  const bytes = readFileSync(path);
  for (let at = 0; at < bytes.length; at += 4096) yield bytes.subarray(at, at + 4096);
}

describe('the progress bar', () => {
  it('on a terminal: drawn in place on stderr while reading, erased before the report, never on stdout', async () => {
    for (const format of ['text', 'json', 'sarif'] as const) {
      const c = captureIo();
      const { terminal: progress, written } = terminal();
      const io = { ...c.io, progress, readPieces: smallPieces };
      const code = await run(['analyze', refused, '--format', format], io);
      expect(code).toBe(1);
      const size = readFileSync(refused).length;
      const lines = written.filter((w) => w.trim() !== '');
      expect(lines.length, JSON.stringify(lines)).toBeGreaterThan(2);
      expect(lines[0]).toMatch(/^\r +\d+% \[#* *\] [\d.]+\/[\d.]+ MB /);
      expect(lines[0]?.trimEnd().endsWith(refused)).toBe(true);
      expect(lines.some((l) => / entries {2}ETA \d+s/.test(l))).toBe(true);
      expect(lines.at(-1)).toContain(`analyzing ${refused}: ${(size / 1e6).toFixed(1)} MB read`);
      expect(written.every((w) => w.startsWith('\r') && w.length <= 201)).toBe(true);
      expect(written.at(-1)).toMatch(/^\r +\r$/); // erased last, before the report was written
      expect(c.out()).not.toMatch(/\r|ETA|analyzing/);
      expect(c.err()).toBe('');
    }
  });

  it('without a terminal (CliIo.progress absent, as when stderr is a pipe or a file): nothing at all', async () => {
    const c = captureIo();
    const io = { ...c.io, readPieces: smallPieces };
    expect(io.progress).toBeUndefined();
    expect(await run(['analyze', refused], io)).toBe(1);
    expect(c.err()).toBe('');
  });

  it('its line: percentage, bar, megabytes, entries and ETA; no bar without a size (standard input)', () => {
    expect(readingLine('a.har', 250e6, 1200, 1000e6, 3000)).toBe(
      ' 25% [#####               ] 250.0/1000.0 MB  1,200 entries  ETA 9s  a.har',
    );
    expect(readingLine('a.sse', 5e6, 0, 1e9, 60_000)).toBe(
      '  0% [                    ] 5.0/1000.0 MB  ETA 3h19m  a.sse',
    );
    expect(readingLine('-', 5e6, 0, undefined, 1000)).toBe('5.0 MB  -');
  });
});
