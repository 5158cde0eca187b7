// Runs anywhere (pure core): the one entry point: raw capture in, derived model and findings out.
import type { Capture } from './capture/model';
import { runRules } from './guard/engine';
import { rules as allRules } from './guard/index';
import type { Rule } from './guard/types';
import { buildModel } from './model/build';
import type { Analysis } from './model/types';

export function analyze(capture: Capture, rules: readonly Rule[] = allRules): Analysis {
  const model = buildModel(capture);
  return { ...model, findings: runRules(model, rules) };
}
