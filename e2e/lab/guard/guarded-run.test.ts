import { describe, expect, it } from 'vitest';
import type { RunResult } from '../client/run-scenario';
import { guardedCell } from './guarded-run';

const run = (verdict: RunResult['verdict'], guard: RunResult['guard']): RunResult => ({
  scenario: 'x',
  verdict,
  detail: '',
  calls: [],
  clientErrors: [],
  elapsedMs: 0,
  ...(guard && { guard }),
});

describe("npm start's with-guard cell", () => {
  it('names the refusal and what the guard did besides', () => {
    const cell = guardedCell(
      run('ok', {
        counts: { 'epoch-mismatch': 1, 'torn-event-reconnect': 1 },
        rejections: [{ rule: 'epoch-mismatch', message: '' }],
        retried: ['stream_progress'],
      }),
    );
    expect(cell).toBe('ok, refused epoch-mismatch, re-initialized, called again, withheld a torn event');
  });

  it('is the verdict alone when the guard had nothing to do', () => {
    expect(guardedCell(run('ok', { counts: {}, rejections: [], retried: [] }))).toBe('ok');
  });
});
