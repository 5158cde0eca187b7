// The real SDK traffic in ../shared/examples (HAR + per-chunk timings) must give exactly the findings expected.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from './analyze';
import { importHar } from './capture/har';
import { EXAMPLES_DIR } from './examples-dir.fixture';

const examplesDir = EXAMPLES_DIR;
const scenarios = readdirSync(examplesDir).filter((d) => existsSync(join(examplesDir, d, 'expected.json')));

interface Expected {
  must: string[];
  must_not: string[];
}

describe('shared examples (real MCP SDK traffic)', () => {
  it('are present', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(2);
  });

  it.each(scenarios.map((s) => [s]))('%s gives the expected findings', (scenario) => {
    const dir = join(examplesDir, scenario);
    const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Expected;
    const capture = importHar(readFileSync(join(dir, 'capture.har'), 'utf8'), {
      chunksNdjson: readFileSync(join(dir, 'chunks.ndjson'), 'utf8'),
    });
    const rules = new Set(analyze(capture).findings.map((f) => f.rule));
    for (const id of expected.must) expect(rules, `must report ${id}`).toContain(id);
    for (const id of expected.must_not) expect(rules, `must not report ${id}`).not.toContain(id);
  });
});

describe('the torn-replay example, as a user reads it', () => {
  const dir = join(examplesDir, 'torn-replay-boundary-sdk-inmemory');
  const analysis = analyze(importHar(readFileSync(join(dir, 'capture.har'), 'utf8'), { chunksNdjson: readFileSync(join(dir, 'chunks.ndjson'), 'utf8') }));

  it('has one 2025-11-25 session with SDK-style ids', () => {
    expect(analysis.sessions).toHaveLength(1);
    expect(analysis.sessions[0]).toMatchObject({ sessionId: '03c88ff5-0b23-4104-89ee-93da8277702f', era: '2025-11-25', idScheme: 'sdk-stream' });
  });

  it('links the resumption GET to the cut POST stream', () => {
    const resume = analysis.connections.find((c) => c.lastEventIdSent !== undefined);
    const cut = analysis.connections.find((c) => c.record.end === 'network-error');
    expect(resume?.resumes).toBe(cut?.id);
    expect(resume?.streamId).toBe(cut?.streamId);
    const stream = analysis.streams.find((s) => s.id === cut?.streamId);
    expect(stream).toMatchObject({ kind: 'post', requestIds: [1] });
  });

  it('shows the torn tail and every progress step once', () => {
    const cut = analysis.connections.find((c) => c.record.end === 'network-error');
    expect(cut?.tail?.pendingLine.startsWith('id: db173ed2')).toBe(true);
    const progress = analysis.events.flatMap((e) => e.messages).filter((m) => m.method === 'notifications/progress');
    expect(progress.map((m) => (m.value as { params: { progress: number } }).params.progress)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
