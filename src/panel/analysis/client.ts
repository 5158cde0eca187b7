// Panel (UI thread): its end of the analysis worker. Forwards what the transport delivers, transferring chunk
// buffers instead of copying them (the UI thread keeps no payload), numbers every command that changes the view,
// and hands the worker's decoded answers to one listener.
import type { TransportMessage } from '../../protocol/messages';
import type { SilenceThresholds } from '../../core/model/silence';
import type { PanelBudget } from '../state/budget';
import { asWorkerToUi } from './decode-results';
import type { Choices, EventRef, ExportKind, UiToWorker, WorkerToUi } from './messages';

/** The slice of Worker the client uses (a test or the in-thread fallback provides the same). */
export interface WorkerPort {
  postMessage(message: UiToWorker, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
  terminate(): void;
}

export interface AnalysisListener {
  message(message: WorkerToUi): void;
  /** A command that changes records was sent: the view is behind until one reflects `seq`. */
  sent(seq: number): void;
  /** The worker failed (it did not load, or threw outside a pass). */
  error(text: string): void;
}

export interface AnalysisClient {
  /** A transport message; `owned`: the caller keeps no use of its buffers, so they are transferred. */
  forward(message: TransportMessage, owned: boolean): void;
  recording(on: boolean): void;
  /** The per-tab budget the worker keeps live records within (the settings' panel budget). */
  budget(budget: PanelBudget): void;
  /** The silence rules' thresholds (the settings'). */
  silence(silence: SilenceThresholds): void;
  clear(): void;
  /** Starts an import; its progress and outcome come as messages with the returned seq. */
  importFile(name: string, file: Blob): number;
  /** Stops the import `importFile` returned `seq` for (what the panel showed before stays). */
  cancelImport(seq: number): void;
  choices(choices: Choices): void;
  rows(version: number, from: number, to: number): void;
  /** Asks for an event's whole payload; the answer comes as a `payload` message with the returned id. */
  payload(event: EventRef): number;
  /** Asks for an export; the answer comes as an `exported` (or `failed`) message with the returned id. */
  /** `revealSecrets`: the user's opt-in; otherwise the export is redacted (docs/redaction.md). */
  exportAs(kind: ExportKind, toolVersion: string, createdAt: number, revealSecrets: boolean): number;
  /** The last command sent that changes records (0: none yet). */
  readonly recordsSeq: number;
  stop(): void;
}

/** The buffers of a message's chunks, each once (several chunks may view one buffer); parcels hold Blobs, not buffers. */
export function chunkBuffers(message: TransportMessage): ArrayBuffer[] {
  if (message.type === 'navigated' || 'parcels' in message) return [];
  const buffers = new Set<ArrayBuffer>();
  for (const delta of message.deltas) {
    if (delta.kind !== 'chunk') continue;
    const buffer = delta.bytes.buffer;
    if (buffer instanceof ArrayBuffer && buffer.byteLength > 0) buffers.add(buffer);
  }
  return [...buffers];
}

export function createAnalysisClient(port: WorkerPort, listener: AnalysisListener): AnalysisClient {
  let seq = 0;
  let recordsSeq = 0;
  let id = 0;
  let stopped = false;
  const send = (message: UiToWorker, transfer: Transferable[] = []) => {
    if (!stopped) port.postMessage(message, transfer);
  };
  const records = (make: (seq: number) => UiToWorker, transfer?: Transferable[]) => {
    recordsSeq = ++seq;
    send(make(recordsSeq), transfer);
    listener.sent(recordsSeq);
  };
  port.addEventListener('message', (event) => {
    if (stopped) return;
    const message = asWorkerToUi(event.data);
    if (message) listener.message(message);
    else listener.error('The analysis worker sent a message the panel does not know.');
  });
  port.addEventListener('error', (event) => {
    if (!stopped) listener.error(`The analysis worker failed: ${event.message || 'it did not start'}`);
  });
  return {
    forward(message, owned) {
      records((s) => ({ type: 'transport', seq: s, message }), owned ? chunkBuffers(message) : []);
    },
    recording(on) {
      records((s) => ({ type: 'recording', seq: s, on }));
    },
    budget(budget) {
      records((s) => ({ type: 'budget', seq: s, budget }));
    },
    silence(silence) {
      records((s) => ({ type: 'silence', seq: s, silence }));
    },
    clear() {
      records((s) => ({ type: 'clear', seq: s }));
    },
    importFile(name, file) {
      records((s) => ({ type: 'import', seq: s, name, file }));
      return recordsSeq;
    },
    cancelImport(importSeq) {
      send({ type: 'import-cancel', importSeq });
    },
    choices(choices) {
      send({ type: 'choices', seq: ++seq, choices });
    },
    rows(version, from, to) {
      send({ type: 'rows', version, from, to });
    },
    payload(event) {
      send({ type: 'payload', id: ++id, event });
      return id;
    },
    exportAs(kind, toolVersion, createdAt, revealSecrets) {
      send({ type: 'export', id: ++id, kind, toolVersion, createdAt, revealSecrets });
      return id;
    },
    get recordsSeq() {
      return recordsSeq;
    },
    stop() {
      stopped = true;
      port.terminate();
    },
  };
}
