// Panel (UI thread, fallback and tests): the analysis host behind a WorkerPort without a Worker. Messages go through
// the same decoders and structured clones as with the real worker, one task later, so order and copies are the same;
// only the work stays on this thread. Used where a Worker cannot start, and by the protocol tests in Node.
import { asUiToWorker } from './decode-commands';
import { createAnalysisHost, type HostDeps } from './host';
import { createIntake } from './intake';
import type { WorkerPort } from './client';

type Listener = (event: MessageEvent<unknown>) => void;

export function inlineWorker(deps: Partial<Pick<HostDeps, 'clock' | 'analyzer' | 'policy'>> = {}): WorkerPort {
  const listeners: Listener[] = [];
  let stopped = false;
  const later = (run: () => void) => setTimeout(() => !stopped && run(), 0);
  const host = createAnalysisHost({
    ...deps,
    clock: deps.clock ?? {
      now: () => performance.now(),
      setTimer: (callback, ms) => setTimeout(callback, ms),
      clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    },
    post: (message, transfer = []) => {
      const data = structuredClone(message, { transfer });
      later(() => listeners.forEach((l) => l(new MessageEvent('message', { data }))));
    },
  });
  const intake = createIntake(
    (command) => host.receive(command),
    (text) =>
      later(() =>
        listeners.forEach((l) => l(new MessageEvent('message', { data: { type: 'failed', message: text } }))),
      ),
  );
  return {
    postMessage(message, transfer) {
      const data: unknown = structuredClone(message, { transfer });
      later(() => {
        const decoded = asUiToWorker(data);
        if (decoded) intake(decoded);
      });
    },
    addEventListener(type: 'message' | 'error', listener: Listener | ((event: ErrorEvent) => void)) {
      if (type === 'message') listeners.push(listener as Listener);
    },
    terminate() {
      stopped = true;
      host.stop();
    },
  };
}
