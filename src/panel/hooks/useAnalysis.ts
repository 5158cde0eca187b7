// Panel: the analysis worker as the UI thread sees it: the latest view, what the worker holds, the selection's
// detail, the rows of the table's window (a small cache, refilled as the table scrolls), and the whole payload
// asked for with "show all". The worker starts with the panel and stops with it.
import { useEffect, useState } from 'preact/hooks';
import { createAnalysisClient, type AnalysisClient, type WorkerPort } from '../analysis/client';
import type { DetailData, EventRef, HeldSummary, TextSegment, ViewData, WorkerToUi } from '../analysis/messages';
import { spawnAnalysisWorker } from '../analysis/spawn';
import { createRowCache, type RowSource } from '../view/rowCache';
import { createTickReceiver } from '../view/tick-wire';
import type { TimelineLayout } from '../view/timeline';

export interface WholePayload {
  key: string;
  segments: TextSegment[];
  json?: { value: unknown };
}

export interface AnalysisView {
  client: AnalysisClient;
  view?: ViewData;
  held?: HeldSummary;
  detail?: DetailData;
  /** The rows of the current view's version that the UI holds (the table subscribes; nothing else re-renders). */
  rows: RowSource;
  /** The one whole payload loaded ("show all"), by event key. */
  whole?: WholePayload;
  /** The key of a whole payload asked for and not here yet. */
  loading?: string;
  /** The worker failed: it did not start, or an analysis or an export threw. */
  error?: string;
  /** Asks for an event's whole payload (once; the answer replaces `whole`). */
  loadWhole(event: EventRef): void;
  /** Subscribes to the seq of records commands sent (the status bar compares it with the view's). */
  onSent(listener: (seq: number) => void): () => void;
  /** Subscribes to the worker's other answers (imported, import-failed, exported). */
  onMessage(listener: (message: WorkerToUi) => void): () => void;
}

export const refKey = (ref: EventRef) => `${ref.connectionId}@${ref.start}`;

/** Rows asked for before the first view, so it arrives with the top of the table. */
const FIRST_WINDOW = 120;

interface Live {
  view?: ViewData;
  held?: HeldSummary;
  detail?: DetailData;
  whole?: WholePayload;
  loading?: string;
  error?: string;
}

export function useAnalysis(spawn: () => WorkerPort = spawnAnalysisWorker): AnalysisView {
  const [live, setLive] = useState<Live>({});
  const [stable] = useState(() => {
    const sent = new Set<(seq: number) => void>();
    const others = new Set<(message: WorkerToUi) => void>();
    let wanted: { id: number; key: string } | undefined;
    const receiveTicks = createTickReceiver();
    const cache = createRowCache((version, from, to) => client.rows(version, from, to));
    const on = (message: WorkerToUi) => {
      switch (message.type) {
        case 'view': {
          const { timeline: wire, ...rest } = message.view;
          let timeline: TimelineLayout | undefined;
          try {
            timeline = wire ? receiveTicks(wire) : undefined;
          } catch (error) {
            setLive((l) => ({ ...l, error: `The analysis worker's timeline could not be read: ${String(error)}` }));
            return;
          }
          cache.take(rest.rows, rest.shownEvents);
          // A view without a timeline keeps the one drawn: it did not change.
          setLive((l) => {
            const layout = timeline ?? l.view?.timeline;
            return layout ? { ...l, view: { ...rest, timeline: layout }, held: rest.held } : l;
          });
          return;
        }
        case 'held':
          setLive((l) => ({ ...l, held: message.held }));
          return;
        case 'rows':
          cache.take(message.rows);
          return;
        case 'detail':
          setLive((l) => ({ ...l, detail: message.detail }));
          return;
        case 'payload': {
          if (wanted?.id !== message.id) return;
          const whole: WholePayload = { key: wanted.key, segments: message.segments };
          if (message.json) whole.json = message.json;
          setLive(({ loading: _loading, ...l }) => ({ ...l, whole }));
          return;
        }
        case 'failed':
          // A payload that could not be loaded is not an error of the panel: the event went away meanwhile.
          if (message.id !== undefined && message.id === wanted?.id) setLive(({ loading: _loading, ...l }) => l);
          else setLive((l) => ({ ...l, error: message.message }));
          return;
        default:
          others.forEach((l) => l(message));
      }
    };
    const client: AnalysisClient = createAnalysisClient(spawn(), {
      sent: (seq) => sent.forEach((l) => l(seq)),
      error: (error) => setLive((l) => ({ ...l, error })),
      message: on,
    });
    client.rows(0, 0, FIRST_WINDOW);
    return {
      client,
      cache,
      loadWhole(event: EventRef) {
        const key = refKey(event);
        if (wanted?.key === key) return;
        wanted = { id: client.payload(event), key };
        setLive((l) => ({ ...l, loading: key }));
      },
      onSent(listener: (seq: number) => void) {
        sent.add(listener);
        return () => void sent.delete(listener);
      },
      onMessage(listener: (message: WorkerToUi) => void) {
        others.add(listener);
        return () => void others.delete(listener);
      },
    };
  });
  const { client, cache } = stable;
  useEffect(() => () => client.stop(), [client]);

  return {
    client,
    ...(live.view ? { view: live.view } : {}),
    ...(live.held ? { held: live.held } : {}),
    ...(live.detail ? { detail: live.detail } : {}),
    ...(live.whole ? { whole: live.whole } : {}),
    ...(live.loading !== undefined ? { loading: live.loading } : {}),
    ...(live.error !== undefined ? { error: live.error } : {}),
    rows: cache,
    loadWhole: stable.loadWhole,
    onSent: stable.onSent,
    onMessage: stable.onMessage,
  };
}
