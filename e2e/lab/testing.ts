// Runs in Node (lab tests and check-findings.ts): run one scenario against a fresh lab with a recording client,
// and read what crossed the wire.
import type { ConnectionRecord } from '../../src/core/capture/model';
import { bodyText, recordingFetch, requestHeader } from './client/recording-fetch';
import { runScenario, type RunResult } from './client/run-scenario';
import type { LabLogEntry } from './proxy/fault-run';
import { findScenario, type Scenario, type ScenarioName } from './scenarios';
import { startLab } from './start-lab';

export interface LabRun {
  scenario: Scenario;
  result: RunResult;
  log: LabLogEntry[];
  /** Every MCP exchange the client made (the control call excluded). */
  connections: ConnectionRecord[];
}

/** Runs one scenario in a fresh lab; `guard` puts the product's client guard in front of the client. */
export async function runInLab(name: ScenarioName, options: { guard?: boolean } = {}): Promise<LabRun> {
  const scenario = findScenario(name);
  if (!scenario) throw new Error(`no scenario ${name}`);
  const lab = await startLab({ build: 'never', scenario: name });
  try {
    const recorder = recordingFetch(undefined, (url) => !url.pathname.startsWith('/__lab/'));
    const result = await runScenario(scenario, {
      baseUrl: lab.url,
      fetch: recorder.fetch,
      selectScenario: false,
      ...(options.guard && { guard: true }),
    });
    return { scenario, result, log: lab.log(), connections: recorder.connections };
  } finally {
    await lab.close();
  }
}

export interface WireEvent {
  id?: string;
  event?: string;
  data: string;
}

/** The events of an SDK-written SSE body (LF line ends), with only their own id fields. */
export function wireEvents(record: ConnectionRecord): WireEvent[] {
  const events: WireEvent[] = [];
  for (const block of bodyText(record).split('\n\n')) {
    const event: WireEvent = { data: '' };
    const data: string[] = [];
    for (const line of block.split('\n')) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') event.id = value;
      else if (field === 'event') event.event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length === 0 && event.id === undefined) continue;
    event.data = data.join('\n');
    events.push(event);
  }
  return events;
}

export function resumes(connections: ConnectionRecord[]): ConnectionRecord[] {
  return connections.filter((c) => c.method === 'GET' && requestHeader(c, 'last-event-id') !== undefined);
}

export function entries(log: LabLogEntry[], action: string): LabLogEntry[] {
  return log.filter((entry) => entry.action === action);
}

/** The JSON-RPC method of a POST body, or 'response' for a client's answer to a server request. */
export function postKind(record: ConnectionRecord): string | undefined {
  if (record.method !== 'POST' || !record.requestBody) return undefined;
  const body = JSON.parse(record.requestBody) as { method?: string };
  return body.method ?? 'response';
}

export { requestHeader };
