// Runs anywhere (pure; the panel uses it): the decoder of the background -> panel union. The background is ours, but
// a bug there must not crash the panel, so every message is shape-checked before the panel folds it in.
import type { BackgroundToPanel } from './messages';
import type { ConnectionDelta } from './records';

/** Shape check on what arrives over the Port: the background is ours, but a bug there must not crash the panel. */
export function asBackgroundToPanel(raw: unknown, tabId: number | undefined): BackgroundToPanel | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  if (typeof m.tabId !== 'number' || (tabId !== undefined && m.tabId !== tabId)) return undefined;
  switch (m.type) {
    case 'snapshot':
      if (typeof m.pageUrl !== 'string' || !isDeltaList(m.deltas) || typeof m.preserveLog !== 'boolean')
        return undefined;
      return {
        type: 'snapshot',
        tabId: m.tabId,
        pageUrl: m.pageUrl,
        deltas: m.deltas,
        preserveLog: m.preserveLog,
        droppedBytes: typeof m.droppedBytes === 'number' ? m.droppedBytes : 0,
      };
    case 'deltas':
      return isDeltaList(m.deltas) ? { type: 'deltas', tabId: m.tabId, deltas: m.deltas } : undefined;
    case 'navigated':
      if (typeof m.pageUrl !== 'string' || typeof m.preserveLog !== 'boolean') return undefined;
      return { type: 'navigated', tabId: m.tabId, pageUrl: m.pageUrl, preserveLog: m.preserveLog };
    default:
      return undefined;
  }
}

function isDeltaList(value: unknown): value is ConnectionDelta[] {
  return Array.isArray(value) && value.every(isDelta);
}

/** A start delta's connection: what the records fold needs before anything else about it arrives. */
function isConnectionStart(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  const named = typeof c.id === 'string' && typeof c.url === 'string' && typeof c.method === 'string';
  return named && Array.isArray(c.requestHeaders) && typeof c.startTime === 'number';
}

function isDelta(value: unknown): value is ConnectionDelta {
  if (typeof value !== 'object' || value === null) return false;
  const d = value as Record<string, unknown>;
  switch (d.kind) {
    case 'start':
      return isConnectionStart(d.conn);
    case 'response':
      return (
        typeof d.id === 'string' &&
        typeof d.status === 'number' &&
        Array.isArray(d.responseHeaders) &&
        typeof d.responseTime === 'number'
      );
    case 'chunk':
      return typeof d.id === 'string' && typeof d.t === 'number' && typeof d.b64 === 'string';
    case 'end':
      return typeof d.id === 'string' && typeof d.end === 'string' && typeof d.endTime === 'number';
    default:
      return false;
  }
}
