// Node (benches): what a page holds in memory, as CDP reports it after a garbage collection: its JS heap, Blink's
// heap (DOM) and the backing stores of its ArrayBuffers and external strings (where bytes live: outside the JS heap
// proper), plus the same for every dedicated worker the page started (the panel's analysis may run in one).
import type { BrowserContext, CDPSession, Page } from '@playwright/test';

export interface HeapFigures {
  /** Page and workers: JS heap + Blink heap + backing stores, bytes. */
  total: number;
  jsHeap: number;
  blinkHeap: number;
  backingStores: number;
  workers: number;
  /** The workers' share of `total`. */
  inWorkers: number;
  /** Each target's figures in MB, the page first: "page JS 7.0 + DOM 1.8 + buffers 0.0; worker ...". */
  detail: string;
}

interface HeapUsage {
  usedSize: number;
  embedderHeapUsedSize: number;
  backingStorageSize: number;
}

type Send = (method: string, params?: Record<string, unknown>) => Promise<unknown>;

/** Commands to a worker attached to `cdp` in non-flat mode (Playwright's CDPSession does not route flat sessions). */
function workerChannel(cdp: CDPSession, sessionId: string): Send {
  let nextId = 1;
  return (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const onMessage = (event: { sessionId?: string; message: string }): void => {
        if (event.sessionId !== sessionId) return;
        const reply = JSON.parse(event.message) as { id?: number; result?: unknown; error?: { message: string } };
        if (reply.id !== id) return;
        cdp.off('Target.receivedMessageFromTarget', onMessage);
        if (reply.error) reject(new Error(`${method} in a worker: ${reply.error.message}`));
        else resolve(reply.result);
      };
      cdp.on('Target.receivedMessageFromTarget', onMessage);
      cdp
        .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) })
        .catch(reject);
    });
}

async function usageAfterGc(send: Send): Promise<HeapUsage> {
  await send('HeapProfiler.collectGarbage');
  return (await send('Runtime.getHeapUsage')) as HeapUsage;
}

/** Heap figures of `page` and its dedicated workers, each measured after a forced GC. */
export async function heapFigures(context: BrowserContext, page: Page): Promise<HeapFigures> {
  const cdp = await context.newCDPSession(page);
  try {
    const workers: string[] = [];
    cdp.on('Target.attachedToTarget', (event) => {
      if (event.targetInfo.type === 'worker') workers.push(event.sessionId);
    });
    // Attaches to the workers already running too; their attachedToTarget events arrive before this reply.
    await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    const sends: Send[] = [
      (method, params) => cdp.send(method as 'Runtime.getHeapUsage', params),
      ...workers.map((id) => workerChannel(cdp, id)),
    ];
    const usages: HeapUsage[] = [];
    for (const send of sends) usages.push(await usageAfterGc(send));
    const all = (u: HeapUsage): number => u.usedSize + u.embedderHeapUsedSize + u.backingStorageSize;
    const inWorkers = usages.slice(1).reduce((n, u) => n + all(u), 0);
    const sum = (f: (u: HeapUsage) => number): number => usages.reduce((n, u) => n + f(u), 0);
    const jsHeap = sum((u) => u.usedSize);
    const blinkHeap = sum((u) => u.embedderHeapUsedSize);
    const backingStores = sum((u) => u.backingStorageSize);
    const total = jsHeap + blinkHeap + backingStores;
    const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);
    const detail = usages
      .map(
        (u, i) =>
          `${i === 0 ? 'page' : 'worker'} JS ${mb(u.usedSize)} + DOM ${mb(u.embedderHeapUsedSize)} + buffers ` +
          mb(u.backingStorageSize),
      )
      .join('; ');
    return { total, jsHeap, blinkHeap, backingStores, workers: workers.length, inWorkers, detail };
  } finally {
    await cdp.detach();
  }
}
