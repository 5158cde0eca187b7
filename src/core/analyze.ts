// Runs anywhere (pure core): the one entry point: raw capture in, derived model and findings out.
import type { Capture } from './capture/model';
import { runRules } from './guard/engine';
import { rules as allRules } from './guard/index';
import type { Rule } from './guard/types';
import { buildModel } from './model/build';
import { ConnectionParseCache } from './model/parse-cache';
import type { Analysis } from './model/types';

export function analyze(capture: Capture, rules: readonly Rule[] = allRules): Analysis {
  const model = buildModel(capture);
  return { ...model, findings: runRules(model, rules) };
}

/** An analyze() that re-parses only connections that changed since its last call. */
export type Analyzer = (capture: Capture) => Analysis;

/**
 * For a capture analysed again and again as it grows (the live panel): each returned analyze keeps its own
 * memory of parsed connections, so records untouched since the last call are not parsed again and a
 * streaming connection's parser reads only its new chunks. Results equal analyze(capture, rules).
 */
export function createAnalyzer(rules: readonly Rule[] = allRules): Analyzer {
  const cache = new ConnectionParseCache();
  return (capture) => {
    const model = buildModel(capture, (records) => cache.parseAll(records));
    return { ...model, findings: runRules(model, rules) };
  };
}
