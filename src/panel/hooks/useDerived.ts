// Panel: recomputes the analysis from raw records, throttled while streaming (see analysisDelay).
import { useEffect, useRef, useState } from 'preact/hooks';
import { createAnalyzer } from '../../core/analyze';
import { recordsToCapture } from '../state/capture';
import type { RecordsState } from '../state/records';
import { analysisDelay } from '../state/throttle';
import { buildPanelView, type PanelView } from '../view/model';

export interface Derived {
  view: PanelView;
  records: RecordsState;
  /** Milliseconds the last analysis took (shown in the status line; 100k events is the yardstick). */
  costMs: number;
}

export interface DerivedState {
  derived?: Derived;
  error?: string;
}

export function useDerived(records: RecordsState, toolVersion: string): DerivedState {
  const [state, setState] = useState<DerivedState>({});
  // This panel's own parse memory: a re-analysis while streaming parses only the chunks that arrived since.
  const [analyze] = useState(createAnalyzer);
  const latest = useRef(records);
  latest.current = records;
  const timing = useRef<{
    lastRun: number;
    lastCost: number;
    timer?: ReturnType<typeof setTimeout>;
    analysed?: RecordsState;
  }>({
    lastRun: -Infinity,
    lastCost: 0,
  });

  useEffect(() => {
    const t = timing.current;
    // A scheduled run reads the latest records; a run may also have picked these up before this effect ran.
    if (t.timer !== undefined || t.analysed === records) return;
    const run = () => {
      t.timer = undefined;
      const input = latest.current;
      if (input === t.analysed) return;
      t.analysed = input;
      const begun = performance.now();
      try {
        const analysis = analyze(recordsToCapture(input, { toolVersion, createdAt: Date.now() }));
        const view = buildPanelView(analysis);
        t.lastCost = performance.now() - begun;
        setState({ derived: { view, records: input, costMs: t.lastCost } });
      } catch (error) {
        t.lastCost = performance.now() - begun;
        setState((s) => ({
          ...s,
          error: `Analysis failed: ${error instanceof Error ? error.message : String(error)}`,
        }));
      }
      t.lastRun = performance.now();
    };
    t.timer = setTimeout(run, analysisDelay(performance.now() - t.lastRun, t.lastCost));
  }, [analyze, records, toolVersion]);

  useEffect(() => {
    const t = timing.current; // one object for the panel's life: the cleanup reads the timer pending at unmount
    return () => clearTimeout(t.timer);
  }, []);
  return state;
}
