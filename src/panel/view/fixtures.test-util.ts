// Test helper (Node): the shared SDK example captures, analysed by the real core, as the panel would see them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../core/analyze';
import { loadInput } from '../../core/capture/load';
import { buildPanelView, type PanelView } from './model';
import { EXAMPLES_DIR } from '../../core/examples-dir.fixture';

const examples = EXAMPLES_DIR;

export function exampleView(name: 'torn-replay-boundary-sdk-inmemory' | 'clean-control-sdk-inmemory'): PanelView {
  const dir = join(examples, name);
  const capture = loadInput(readFileSync(join(dir, 'capture.har')), 'capture.har', { chunksNdjson: readFileSync(join(dir, 'chunks.ndjson'), 'utf8') });
  return buildPanelView(analyze(capture));
}
