// Panel (UI thread): starts the analysis worker, a module worker bundled by vite (same origin as the panel page, so
// the extension CSP `script-src 'self'` admits it); where a Worker cannot be made at all, the host runs in-thread.
import type { WorkerPort } from './client';
import { inlineWorker } from './inline';

export function spawnAnalysisWorker(): WorkerPort {
  try {
    return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'mcp-streams-analysis' });
  } catch {
    // No Worker here (a page whose CSP forbids it): the same host on this thread keeps the panel working.
    return inlineWorker();
  }
}
