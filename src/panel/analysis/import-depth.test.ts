import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../core/capture/json-depth';
import { createAnalysisHost } from './host';
import type { WorkerToUi } from './messages';

// The panel's import reads a dropped file through the core's streaming reader: a file nested 200,000 deep (48 s in
// the CLI before the depth limit) is refused with where it goes too deep, as the CLI says it.
describe("the panel's import of a deeply nested file", () => {
  it('fails with "nested deeper than N at byte B"', async () => {
    const out: WorkerToUi[] = [];
    const host = createAnalysisHost({
      post: (m) => out.push(m),
      clock: { now: () => 0, setTimer: () => 0, clearTimer: () => undefined },
    });
    const levels = 200_000;
    const file = new Blob(['['.repeat(levels), ']'.repeat(levels)]);
    host.receive({ type: 'import', seq: 1, name: 'deep.json', file });
    while (!out.some((m) => m.type === 'import-failed' || m.type === 'imported'))
      await new Promise((resolve) => setTimeout(resolve, 0));
    host.stop();
    expect(out.find((m) => m.type === 'import-failed')).toMatchObject({
      name: 'deep.json',
      message: expect.stringContaining(`nested deeper than ${MAX_JSON_DEPTH} at byte ${MAX_JSON_DEPTH}`),
    });
  });
});
