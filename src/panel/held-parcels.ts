// Panel (pure): which numbered parcels of each frame's bridge this panel holds, so that after the worker stopped it
// re-attaches naming them (the bridge re-sends only what follows), drops what it is sent twice, and acknowledges
// what it holds (the bridge then forgets it).
import type { BackgroundToPanel, FrameResume, PanelToBackground } from '../protocol/messages';

export class HeldParcels {
  private readonly held = new Map<number, { link: string; seq: number }>();
  /** Frames whose holdings grew since the last acks. */
  private readonly grown = new Set<number>();

  /**
   * The message with the parcels this panel already holds left out (a bridge re-sends what no acknowledgement
   * reached it for). A snapshot's parts are merged by the records, never left out: they start each frame afresh.
   */
  admit(message: BackgroundToPanel): BackgroundToPanel {
    if (message.type === 'navigated') return message;
    const parcels = message.parcels.filter((parcel) => {
      const from = parcel.from;
      if (!from) return true;
      const known = this.held.get(from.frameId);
      const fresh = message.type === 'snapshot' || !known || known.link !== from.link || from.seq > known.seq;
      if (!fresh) return false;
      this.held.set(from.frameId, { link: from.link, seq: from.seq });
      this.grown.add(from.frameId);
      return true;
    });
    return parcels.length === message.parcels.length ? message : { ...message, parcels };
  }

  /** Acknowledgements for what grew since last asked. */
  acks(tabId: number): PanelToBackground[] {
    const acks: PanelToBackground[] = [];
    for (const frameId of this.grown) {
      const point = this.held.get(frameId);
      if (point) acks.push({ type: 'ack', tabId, frameId, link: point.link, seq: point.seq });
    }
    this.grown.clear();
    return acks;
  }

  /** Resume points for an attach after the worker went away. */
  points(): FrameResume[] {
    return [...this.held].map(([frameId, point]) => ({ frameId, ...point }));
  }

  reset(): void {
    this.held.clear();
    this.grown.clear();
  }
}
