// Panel (pure): number and text formatting shared by the views. Tabular figures are applied by CSS.
import type { Envelope } from './events';

const group = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Milliseconds relative to a start, one decimal, thousands grouped: "1,234.5". */
export function formatRelMs(ms: number): string {
  const fixed = (Math.round(ms * 10) / 10).toFixed(1);
  const [whole, frac] = fixed.split('.');
  return `${group(whole ?? '0')}.${frac ?? '0'}`;
}

/**
 * A whole number with thousands grouped: "100,002". Not toLocaleString: its first call builds the ICU number
 * formatter, a 100 ms task on the panel's thread the first time a count is drawn.
 */
export function formatCount(n: number): string {
  return Number.isInteger(n) ? group(String(n)) : String(n);
}

/** A duration for axis labels and summaries: "850 ms", "1.25 s", "2 min 5 s". */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 1) return `${trim(ms.toFixed(2))} ms`;
  if (abs < 1000) return `${trim(ms.toFixed(abs < 10 ? 1 : 0))} ms`;
  if (abs < 60_000) return `${trim((ms / 1000).toFixed(abs < 10_000 ? 2 : 1))} s`;
  const minutes = Math.floor(abs / 60_000);
  const seconds = Math.round((abs % 60_000) / 1000);
  return `${ms < 0 ? '-' : ''}${minutes} min ${seconds} s`;
}

function trim(n: string): string {
  return n.includes('.') ? n.replace(/\.?0+$/, '') : n;
}

/** Bytes the way the Network panel writes them: "348 B", "1.2 kB", "4.0 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** A shortened id for narrow columns; the full one goes in a title attribute. */
export function shortId(id: string, keep = 8): string {
  return id.length <= keep + 1 ? id : `${id.slice(0, keep)}…`;
}

/** "tools/call #3", "notifications/progress", "result #3", "error #3"; a batch joins them. */
export function describeMessages<M extends Envelope>(messages: readonly M[]): string {
  return messages.map(describeMessage).join(', ');
}

export function describeMessage<M extends Envelope>(message: M): string {
  const id = message.id !== undefined ? ` #${String(message.id)}` : '';
  switch (message.kind) {
    case 'request':
      return `${message.method ?? '?'}${id}`;
    case 'notification':
      return message.method ?? '?';
    case 'response':
      return `result${id}`;
    case 'error':
      return `error${id}`;
  }
}

/** Wall-clock time for headers: "15:54:48.233". */
export function formatClock(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** Keeps both ends of a long id: "db173ed2-2e82…_ukzql3ku". */
export function middleEllipsis(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = max - 1;
  const head = Math.ceil(keep / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (keep - head))}`;
}
