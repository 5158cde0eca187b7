// Panel page (evaluated by in-page.ts, so each function is self-contained): what the panel shows, read only from
// its DOM (the status bar's data-* attributes and text, the findings' data-rule), the long tasks of its thread,
// when its display last changed, and frame times while its events table scrolls.

export interface PanelReading {
  /** The status bar's data-wire (see src/panel/view/wireSignature.ts), or null before it renders. */
  wire: { connections: number; answered: number; streamBytes: number; streamsEnded: number } | null;
  /** data-analysis="current": the analysis on screen was made from every record the panel holds. */
  analysisCurrent: boolean;
  pendingBodies: number;
  /** Events the panel counts: data-events if the status bar has it, else the total in its "N events" text. */
  events: number | null;
  findings: string[];
}

export interface PanelTask {
  /** Epoch ms (performance.timeOrigin + startTime), comparable with the bench page's clock. */
  startEpoch: number;
  duration: number;
}

interface Watch {
  tasks: PanelTask[];
  /** When the reading last changed (epoch ms), and how many times it changed. */
  lastChangeEpoch: number;
  lastSignature: string;
  changes: number;
}

interface Store {
  __benchPanel?: Watch;
}

export function readPanel(): PanelReading {
  const bar = document.querySelector('[data-testid=status-bar]');
  const wire = bar?.getAttribute('data-wire');
  const eventsAttribute = bar?.getAttribute('data-events');
  const counted = /([\d,]+)(?: \/ ([\d,]+))? events?\b/.exec(bar?.textContent ?? '');
  const total = counted ? (counted[2] ?? counted[1] ?? '') : '';
  return {
    wire: wire ? (JSON.parse(wire) as PanelReading['wire']) : null,
    analysisCurrent: bar?.getAttribute('data-analysis') === 'current',
    pendingBodies: Number(bar?.getAttribute('data-pending-bodies') ?? 'NaN'),
    events: eventsAttribute ? Number(eventsAttribute) : total ? Number(total.replaceAll(',', '')) : null,
    findings: Array.from(
      document.querySelectorAll('[data-testid=finding]'),
      (el) => el.getAttribute('data-rule') ?? '',
    ),
  };
}

/**
 * Starts watching, in the panel page: every long task of its main thread, and (by a MutationObserver over the
 * document) the moment the reading above last changed. The reading is re-derived here, as readPanel cannot be
 * referenced from a self-contained function.
 */
export function installPanelWatch(): void {
  const store = globalThis as unknown as Store;
  const signature = (): string => {
    const bar = document.querySelector('[data-testid=status-bar]');
    const counted = /([\d,]+)(?: \/ ([\d,]+))? events?\b/.exec(bar?.textContent ?? '');
    const rules = Array.from(document.querySelectorAll('[data-testid=finding]'), (el) => el.getAttribute('data-rule'));
    return JSON.stringify([
      bar?.getAttribute('data-wire'),
      bar?.getAttribute('data-analysis'),
      bar?.getAttribute('data-pending-bodies'),
      bar?.getAttribute('data-events') ?? counted?.[0],
      rules,
    ]);
  };
  const now = (): number => performance.timeOrigin + performance.now();
  const watch: Watch = { tasks: [], lastChangeEpoch: now(), lastSignature: signature(), changes: 0 };
  store.__benchPanel = watch;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      watch.tasks.push({ startEpoch: performance.timeOrigin + e.startTime, duration: e.duration });
    }
  }).observe({ type: 'longtask' });
  new MutationObserver(() => {
    const next = signature();
    if (next === watch.lastSignature) return;
    watch.lastSignature = next;
    watch.lastChangeEpoch = now();
    watch.changes++;
  }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
}

export interface WatchResult {
  tasks: PanelTask[];
  lastChangeEpoch: number;
  changes: number;
}

export async function takeWatch(): Promise<WatchResult> {
  // Long task entries are delivered after their task ends.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const watch = (globalThis as unknown as Store).__benchPanel;
  if (!watch) throw new Error('installPanelWatch did not run in this page');
  return { tasks: [...watch.tasks], lastChangeEpoch: watch.lastChangeEpoch, changes: watch.changes };
}

export interface ScrollResult {
  /** ms between consecutive animation frames while scrolling. */
  frames: number[];
  startEpoch: number;
  endEpoch: number;
  /** The table had more rows than fit: scrolling moved it. */
  scrollable: boolean;
  rowsInDom: number;
}

/** Scrolls the events table by `step` px per animation frame for `count` frames (down, then back up at the end). */
export async function scrollTable(options: { count: number; step: number }): Promise<ScrollResult> {
  const body = document.querySelector<HTMLElement>('.grid-body');
  if (!body) throw new Error('no .grid-body (events table) in the panel');
  const frame = (): Promise<number> => new Promise((resolve) => requestAnimationFrame(resolve));
  const frames: number[] = [];
  let last = await frame();
  const startEpoch = performance.timeOrigin + performance.now();
  for (let i = 0; i < options.count; i++) {
    const atEnd = body.scrollTop + body.clientHeight >= body.scrollHeight;
    body.scrollTop = atEnd ? 0 : body.scrollTop + options.step;
    const time = await frame();
    frames.push(time - last);
    last = time;
  }
  return {
    frames,
    startEpoch,
    endEpoch: performance.timeOrigin + performance.now(),
    scrollable: body.scrollHeight > body.clientHeight,
    rowsInDom: document.querySelectorAll('[data-testid=event-row]').length,
  };
}
