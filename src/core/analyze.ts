// Runs anywhere (pure core): the one entry point: raw capture in, derived model and findings out.
import type { Capture, ConnectionRecord } from './capture/model';
import { runRules } from './guard/engine';
import { FactsMemory, withFacts } from './guard/facts';
import { reconnectBehaviours, type ReconnectBehaviour } from './guard/reconnects';
import { rules as allRules } from './guard/index';
import type { Finding, Rule } from './guard/types';
import { buildModel } from './model/build';
import { parseConnection, type SseBodyReader } from './model/connection';
import { PlacementMemory } from './model/events';
import { ConnectionParseCache } from './model/parse-cache';
import { DEFAULT_SILENCE, type SilenceThresholds } from './model/silence';
import type { Model } from './model/types';

/** What {@link analyze} derives from a capture: its sessions, streams, connections and events, and the findings. */
export interface Analysis extends Model {
  /** Every rule's findings, ordered by time, then severity (most severe first), then rule id. */
  findings: Finding[];
  /**
   * What each session's client does when a stream ends (resumes POST streams, honours `retry:`), as far as its
   * traffic shows it; one entry per session of a resumable era (2025-03-26 to 2025-11-25, or unknown).
   */
  reconnects: ReconnectBehaviour[];
}

/** What an analysis may be told besides the capture: the silence rules' thresholds (defaults: DEFAULT_SILENCE). */
export interface AnalysisOptions {
  silence?: Partial<SilenceThresholds>;
}

function silenceOf(options: AnalysisOptions): SilenceThresholds {
  return { ...DEFAULT_SILENCE, ...options.silence };
}

/** Rules and the reconnect behaviours over one model, on one set of facts (an analyzer's memory when given). */
function judge(model: Model, rules: readonly Rule[], memory?: FactsMemory): Analysis {
  const run = (): Analysis => ({ ...model, findings: runRules(model, rules), reconnects: reconnectBehaviours(model) });
  return memory ? withFacts(model, memory, run) : run();
}

/**
 * Analyses a capture: reassembles every SSE stream, links resumptions to the streams they resume, and runs
 * the guard rules. Pure: the same capture always gives the same analysis.
 * @param capture raw transport records, e.g. from {@link loadInput}.
 * @param rules the rules to run; all registered rules when omitted.
 * @param options the silence rules' thresholds.
 * @returns the derived model and the findings.
 * @example
 * const analysis = analyze(loadInput(readFileSync('session.har'), 'session.har'));
 * for (const f of analysis.findings) console.log(`${f.severity} ${f.rule}: ${f.message}`);
 */
export function analyze(capture: Capture, rules: readonly Rule[] = allRules, options: AnalysisOptions = {}): Analysis {
  return judge(buildModel(capture, undefined, undefined, silenceOf(options)), rules);
}

/**
 * {@link analyze}, with the SSE bodies of some records parsed already, as they were read (the CLI parses a raw file's
 * pieces while it reads them, so the file is not read again for that). Results equal analyze(capture, rules).
 * @param bodies a reader per record id that has read that record's first chunks (the same chunk objects, in order).
 */
export function analyzeRead(
  capture: Capture,
  bodies: ReadonlyMap<string, SseBodyReader>,
  rules: readonly Rule[] = allRules,
  options: AnalysisOptions = {},
): Analysis {
  const parse = (records: readonly ConnectionRecord[]) =>
    records.map((record) => parseConnection(record, bodies.get(record.id)));
  return judge(buildModel(capture, parse, undefined, silenceOf(options)), rules);
}

/** An {@link analyze} that redoes only the work the changes since its last call need. */
export interface Analyzer {
  (capture: Capture): Analysis;
  /**
   * Parses what arrived on a streaming record since the last analysis, before the next one is asked for (the
   * live panel calls it as each chunk comes), so that analysis has little left to parse. Changes no result.
   * @param record a record of the capture last analysed, or a newer copy of it with more chunks.
   */
  readAhead(record: ConnectionRecord): void;
}

/**
 * For a capture analysed again and again as it grows (the live panel): each returned analyze keeps its own
 * memory of the last analysis, so records untouched since the last call are not parsed again, a streaming
 * connection's parser reads only its new chunks, unchanged events keep their places (the new event list continues
 * the last one), and the rules' shared event indexes read only the events that arrived. Results equal
 * analyze(capture, rules).
 * @param rules the rules to run; all registered rules when omitted.
 * @returns an analyze function with its own memory.
 * @example
 * const analyzeLive = createAnalyzer();
 * onChunk((record) => analyzeLive.readAhead(record));
 * onCaptureChanged((capture) => render(analyzeLive(capture)));
 */
export function createAnalyzer(rules: readonly Rule[] = allRules, options: AnalysisOptions = {}): Analyzer {
  const cache = new ConnectionParseCache();
  const placement = new PlacementMemory();
  const facts = new FactsMemory();
  const silence = silenceOf(options);
  const analyzeLive = (capture: Capture): Analysis =>
    judge(
      buildModel(capture, (records) => cache.parseAll(records), placement, silence),
      rules,
      facts,
    );
  return Object.assign(analyzeLive, { readAhead: (record: ConnectionRecord) => cache.readAhead(record) });
}
