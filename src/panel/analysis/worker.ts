// Panel analysis worker (dedicated module Worker, started by the panel page): parsing, rules and the derived view
// run here over the pure core, off the UI thread. It may touch only its own scope: no DOM, no extension APIs.
import { asUiToWorker } from './decode-commands';
import { createAnalysisHost } from './host';
import { createIntake } from './intake';
import type { WorkerToUi } from './messages';

/** The slice of DedicatedWorkerGlobalScope used here (the panel compiles against the DOM library, not WebWorker). */
interface WorkerScope {
  postMessage(message: WorkerToUi, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
}

const scope = globalThis as unknown as WorkerScope;

const host = createAnalysisHost({
  post: (message, transfer = []) => scope.postMessage(message, transfer),
  clock: {
    now: () => performance.now(),
    setTimer: (callback, ms) => setTimeout(callback, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  },
  // The records' times are the page's epoch ms; so is this.
  wallClock: () => performance.timeOrigin + performance.now(),
});

const fail = (message: string) => scope.postMessage({ type: 'failed', message });
const intake = createIntake((command) => host.receive(command), fail);

scope.addEventListener('message', (event) => {
  const message = asUiToWorker(event.data);
  if (message) intake(message);
  else fail('The analysis worker was sent a message it does not know.');
});
