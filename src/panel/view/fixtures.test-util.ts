// Test helper (Node): the lab's recordings of real SDK traffic (fixtures/), analysed by the real core, as the panel would see them.
import { analyze } from '../../core/analyze';
import { loadInput } from '../../core/capture/load';
import { buildPanelView, type PanelView } from './model';
import { readFixture } from '../../core/fixtures-dir.fixture';

export function exampleView(
  name: 'cut-mid-event' | 'clean' | 'v2-cut-reissued' | 'v2-mixed-eras' | 'v2-clean',
): PanelView {
  const { har, ndjson } = readFixture(name);
  const capture = loadInput(new TextEncoder().encode(har), 'capture.har', { chunksNdjson: ndjson });
  return buildPanelView(analyze(capture));
}

/** The connection the lab proxy cut and the one that resumed it, found by what they are (request order races). */
export function cutAndResume(view: PanelView): { cut: string; resume: string } {
  const cut = view.analysis.connections.find((c) => c.record.end === 'network-error');
  const resume = view.analysis.connections.find((c) => c.resumes !== undefined && c.resumes === cut?.id);
  if (!cut || !resume) throw new Error('the recording has no cut connection resumed by another');
  return { cut: cut.id, resume: resume.id };
}
