// Worker (no browser APIs here; index.ts injects them): routes records per tab between bridges and panels.
// Nothing irreplaceable lives here: bridges hold the buffers, so after a restart a panel re-attaches and gets
// a complete snapshot again.
import type { FaultArm } from '../protocol/break';
import type {
  BackgroundToBridge,
  BackgroundToBridgePort,
  BackgroundToPanel,
  BreakAck,
  BridgeToBackground,
  FrameResume,
  PanelToBackground,
} from '../protocol/messages';
import { scopeParcel } from '../protocol/parcel';
import type { Parcel } from '../protocol/records';

export interface PanelLink {
  post(message: BackgroundToPanel | BreakAck): void;
}

export interface BridgeLink {
  readonly tabId: number;
  readonly frameId: number;
  /** Posts on the bridge's own Port (acknowledgements, "nobody watches"). */
  post(message: BackgroundToBridgePort): void;
  disconnect(): void;
}

export interface RouterEffects {
  /** The tab's frames that have a bridge, as their hellos told (see frame-roster.ts). */
  listFrames(tabId: number): Promise<{ frameId: number; url: string }[]>;
  /** A bridge said hello: a new document in that frame (remembered for panels attaching later). */
  noteFrame(tabId: number, frameId: number, url: string): Promise<void>;
  /** Resolves false when the frame has no bridge listening (yet). */
  sendToFrame(tabId: number, frameId: number, message: BackgroundToBridge): Promise<boolean>;
  /** Every frame of the tab. */
  sendToTab(tabId: number, message: BackgroundToBridge): void;
  getPreserveLog(tabId: number): Promise<boolean>;
  setPreserveLog(tabId: number, preserve: boolean): Promise<void>;
  setTimer(task: () => void, ms: number): void;
  /**
   * The tab's URL as the browser tells it (the extension's host access lets it): for a page that has no bridge, on a
   * site the user did not pick, so the panel can still say which page it is not recording.
   */
  tabUrl(tabId: number): Promise<string>;
}

/** A panel's snapshot while frames are still answering. */
interface Pending {
  waiting: Set<number>;
  parcels: Parcel[];
  /** Live parcels from frames that already answered, sent right after the snapshot. */
  queued: Parcel[];
  droppedBytes: number;
  droppedConnections: number;
  pageUrl: string;
}

interface Panel {
  link: PanelLink;
  tabId: number;
  /** Snapshot parts of older collects may have begun before this panel attached: ignored. */
  minGeneration: number;
  /** Bridges whose whole buffer this panel has received; their live deltas now flow to it. */
  ready: Set<BridgeLink>;
  pending: Pending | null;
  preserveLog: boolean;
  /** Per bridge, the last parcel this panel says it holds. */
  acked: Map<BridgeLink, number>;
}

/** A frame that has not answered by then is left out of the snapshot; its data follows as deltas. */
export const SNAPSHOT_TIMEOUT_MS = 3000;
const COLLECT_RETRY_MS = [0, 50, 100, 200, 400, 800];

export class Router {
  private readonly panels = new Map<PanelLink, Panel>();
  private readonly bridges = new Set<BridgeLink>();
  private readonly generations = new Map<number, number>();
  /** Each bridge's link id (its stream of numbered parcels), as its messages say. */
  private readonly links = new Map<BridgeLink, string>();

  constructor(private readonly fx: RouterEffects) {}

  hasPanels(tabId: number): boolean {
    for (const p of this.panels.values()) if (p.tabId === tabId) return true;
    return false;
  }

  // ---- panels

  panelMessage(link: PanelLink, message: PanelToBackground): void {
    if (message.type === 'attach') void this.attach(link, message.tabId, message.resume ?? []);
    else if (message.type === 'ack') this.panelAck(link, message);
    else if (message.type === 'clear') this.fx.sendToTab(message.tabId, { type: 'clear' });
    else if (message.type === 'break') this.sendBreak(message.tabId, message.arm, link);
    else void this.setPreserveLog(message.tabId, message.preserve);
  }

  /** The Break menu arms the top frame's tap only: one page, one set of one-shot faults; the panel hears if it took. */
  private sendBreak(tabId: number, arm: FaultArm | null, panel?: PanelLink): void {
    const answer = (taken: boolean): void => {
      if (panel && this.panels.has(panel)) panel.post({ type: 'break-armed', tabId, armId: arm?.armId ?? null, taken });
    };
    this.fx.sendToFrame(tabId, 0, { type: 'break', arm }).then(answer, () => answer(false));
  }

  /**
   * A panel holds a bridge's parcels up to `seq`: the bridge may forget what every panel watching it holds (the
   * lowest of their acknowledgements; a panel still waiting for that bridge's snapshot does not count).
   */
  private panelAck(link: PanelLink, ack: { frameId: number; link: string; seq: number }): void {
    const panel = this.panels.get(link);
    if (!panel) return;
    const bridge = [...panel.ready].find((b) => b.frameId === ack.frameId && this.links.get(b) === ack.link);
    if (!bridge) return;
    panel.acked.set(bridge, Math.max(panel.acked.get(bridge) ?? 0, ack.seq));
    let lowest = Number.POSITIVE_INFINITY;
    for (const p of this.panels.values()) if (p.ready.has(bridge)) lowest = Math.min(lowest, p.acked.get(bridge) ?? 0);
    if (Number.isFinite(lowest) && lowest > 0) bridge.post({ type: 'ack', seq: lowest });
  }

  panelDisconnected(link: PanelLink): void {
    const panel = this.panels.get(link);
    this.panels.delete(link);
    if (panel && !this.hasPanels(panel.tabId)) {
      // Armed faults live only while someone watches (always sent: a restarted worker cannot know what was armed).
      this.sendBreak(panel.tabId, null);
      // Nobody watches this tab: its bridges go back to buffering only (told first, so they keep nothing for us).
      for (const bridge of this.bridges.keys()) {
        if (bridge.tabId !== panel.tabId) continue;
        bridge.post({ type: 'idle' });
        bridge.disconnect();
      }
    }
  }

  private async attach(link: PanelLink, tabId: number, resume: readonly FrameResume[]): Promise<void> {
    const generation = this.nextGeneration(tabId);
    const pending: Pending = {
      waiting: new Set(),
      parcels: [],
      queued: [],
      droppedBytes: 0,
      droppedConnections: 0,
      pageUrl: '',
    };
    const panel: Panel = {
      link,
      tabId,
      minGeneration: generation,
      ready: new Set(),
      pending,
      preserveLog: false,
      acked: new Map(),
    };
    this.panels.set(link, panel);
    panel.preserveLog = await this.fx.getPreserveLog(tabId).catch(() => false);
    const frames = await this.fx.listFrames(tabId).catch(() => [{ frameId: 0, url: '' }]);
    if (panel.pending !== pending) return;
    for (const frame of frames) {
      pending.waiting.add(frame.frameId);
      if (frame.frameId === 0 && !pending.pageUrl) pending.pageUrl = frame.url;
    }
    if (!frames.some((frame) => frame.frameId === 0)) {
      pending.pageUrl = await this.fx.tabUrl(tabId).catch(() => '');
      if (panel.pending !== pending) return;
    }
    for (const frame of frames) {
      const point = resume.find((r) => r.frameId === frame.frameId);
      const collect: BackgroundToBridge = point
        ? { type: 'collect', generation, resume: { link: point.link, seq: point.seq } }
        : { type: 'collect', generation };
      this.fx.sendToFrame(tabId, frame.frameId, collect).then(
        (answered) => answered || this.frameAnswered(panel, frame.frameId),
        () => this.frameAnswered(panel, frame.frameId),
      );
    }
    this.fx.setTimer(() => this.finish(panel), SNAPSHOT_TIMEOUT_MS);
    if (frames.length === 0) this.finish(panel);
  }

  private async setPreserveLog(tabId: number, preserve: boolean): Promise<void> {
    for (const p of this.panels.values()) if (p.tabId === tabId) p.preserveLog = preserve;
    await this.fx.setPreserveLog(tabId, preserve);
  }

  private frameAnswered(panel: Panel, frameId: number): void {
    const pending = panel.pending;
    if (!pending) return;
    pending.waiting.delete(frameId);
    if (pending.waiting.size === 0) this.finish(panel);
  }

  private finish(panel: Panel): void {
    const pending = panel.pending;
    if (!pending || this.panels.get(panel.link) !== panel) return;
    panel.pending = null;
    panel.link.post({
      type: 'snapshot',
      tabId: panel.tabId,
      pageUrl: pending.pageUrl,
      parcels: pending.parcels,
      preserveLog: panel.preserveLog,
      droppedBytes: pending.droppedBytes,
      droppedConnections: pending.droppedConnections,
    });
    if (pending.queued.length > 0) panel.link.post({ type: 'deltas', tabId: panel.tabId, parcels: pending.queued });
  }

  // ---- bridges

  bridgeConnected(link: BridgeLink): void {
    this.bridges.add(link);
  }

  bridgeDisconnected(link: BridgeLink): void {
    this.bridges.delete(link);
    this.links.delete(link);
    for (const panel of this.panels.values()) {
      panel.ready.delete(link);
      panel.acked.delete(link);
      if (panel.tabId === link.tabId) this.frameAnswered(panel, link.frameId);
    }
  }

  bridgeMessage(link: BridgeLink, message: BridgeToBackground): void {
    if (!this.bridges.has(link) || message.type === 'navigated') return;
    this.links.set(link, message.link);
    const from = { frameId: link.frameId, link: message.link, seq: message.seq };
    const parcel = { ...scopeParcel(message.parcel, link.frameId), from };
    for (const panel of this.panels.values()) {
      if (panel.tabId !== link.tabId) continue;
      if (message.type === 'deltas') {
        if (panel.ready.has(link)) this.deliver(panel, parcel, true);
        continue;
      }
      if (panel.ready.has(link) || message.generation < panel.minGeneration) continue;
      this.deliver(panel, parcel, false);
      if (link.frameId === 0 && panel.pending) panel.pending.pageUrl = message.documentUrl;
      if (!message.last) continue;
      panel.ready.add(link);
      if (panel.pending) {
        panel.pending.droppedBytes += message.droppedBytes;
        panel.pending.droppedConnections += message.droppedConnections;
      }
      this.frameAnswered(panel, link.frameId);
    }
  }

  private deliver(panel: Panel, parcel: Parcel, live: boolean): void {
    if (parcel.deltas.length === 0) return;
    if (panel.pending) (live ? panel.pending.queued : panel.pending.parcels).push(parcel);
    else panel.link.post({ type: 'deltas', tabId: panel.tabId, parcels: [parcel] });
  }

  // ---- navigation: a bridge says hello at document_start, so a hello is a committed document in its frame

  /**
   * A new bridge runs in a frame (the frame committed a new document): remember the frame, tell panels (top frame)
   * and collect the new bridge. Replaces webNavigation.onCommitted: only frames with a bridge count, which are the
   * only ones that could ever be collected.
   */
  bridgeHello(tabId: number, frameId: number, url: string): void {
    this.fx.noteFrame(tabId, frameId, url).catch(() => undefined);
    if (!this.hasPanels(tabId)) return;
    if (frameId === 0) {
      for (const panel of this.panels.values()) {
        if (panel.tabId === tabId)
          panel.link.post({ type: 'navigated', tabId, pageUrl: url, preserveLog: panel.preserveLog });
      }
    }
    this.collectNewDocument(tabId, frameId, 0);
  }

  private collectNewDocument(tabId: number, frameId: number, attempt: number): void {
    const delay = COLLECT_RETRY_MS[attempt];
    if (delay === undefined || !this.hasPanels(tabId)) return;
    this.fx.setTimer(() => {
      const generation = this.nextGeneration(tabId);
      this.fx.sendToFrame(tabId, frameId, { type: 'collect', generation }).then(
        (answered) => answered || this.collectNewDocument(tabId, frameId, attempt + 1),
        () => this.collectNewDocument(tabId, frameId, attempt + 1),
      );
    }, delay);
  }

  tabRemoved(tabId: number): void {
    this.generations.delete(tabId);
  }

  private nextGeneration(tabId: number): number {
    const next = (this.generations.get(tabId) ?? 0) + 1;
    this.generations.set(tabId, next);
    return next;
  }
}
