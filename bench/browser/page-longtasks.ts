// Bench page (evaluated by in-page.ts, so each function is self-contained): long tasks and long animation frames as
// the page itself sees them, and a clock mark that lines the page's clock up with a CDP CPU profile.

export interface PageLongTask {
  /** performance.now() ms. */
  start: number;
  duration: number;
}

export interface PageLongFrame extends PageLongTask {
  /** sourceURL of each script the Long Animation Frames API attributed time to ('' for evaluated code). */
  scriptUrls: string[];
}

export interface PageLongTasks {
  tasks: PageLongTask[];
  frames: PageLongFrame[];
}

interface Store {
  __benchLongTasks?: PageLongTasks;
}

/** Starts collecting 'longtask' and 'long-animation-frame' entries from now on (not buffered: only the read counts). */
export function observeLongTasks(): void {
  const store = globalThis as unknown as Store;
  const collected: PageLongTasks = { tasks: [], frames: [] };
  store.__benchLongTasks = collected;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) collected.tasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask' });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const scripts = (e as unknown as { scripts?: { sourceURL?: string }[] }).scripts ?? [];
      collected.frames.push({
        start: e.startTime,
        duration: e.duration,
        scriptUrls: scripts.map((s) => s.sourceURL ?? ''),
      });
    }
  }).observe({ type: 'long-animation-frame' });
}

/** What observeLongTasks collected; waits a moment first, as entries are delivered after their task ends. */
export async function takeLongTasks(): Promise<PageLongTasks> {
  await new Promise((resolve) => setTimeout(resolve, 200));
  const store = globalThis as unknown as Store;
  return store.__benchLongTasks ?? { tasks: [], frames: [] };
}

/**
 * Spins for `spinMs` in a function of this name: the CPU profile's samples inside it, against the page clock read
 * here, give the offset between the profile's microsecond clock and performance.now().
 */
export function benchClockMark(spinMs: number): { start: number; end: number } {
  const start = performance.now();
  let end = start;
  while (end - start < spinMs) end = performance.now();
  return { start, end };
}
