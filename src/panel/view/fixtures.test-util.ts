// Test helper (Node): the shared SDK example captures, analysed by the real core, as the panel would see them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze } from '../../core/analyze';
import { loadInput } from '../../core/capture/load';
import { buildPanelView, type PanelView } from './model';

const examples = fileURLToPath(new URL('../../core/capture/testdata', import.meta.url));

export function exampleView(name: 'torn-replay-boundary-sdk-inmemory' | 'clean-control-sdk-inmemory'): PanelView {
  const dir = join(examples, name);
  const capture = loadInput(readFileSync(join(dir, 'capture.har')), 'capture.har', { chunksNdjson: readFileSync(join(dir, 'chunks.ndjson'), 'utf8') });
  return buildPanelView(analyze(capture));
}
