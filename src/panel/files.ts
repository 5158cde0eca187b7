// Panel: file export plumbing (a Blob the worker made, downloaded through an anchor) and export file names.
import type { ExportKind } from './analysis/messages';

export type { ExportKind };

/** mcp-capture-2026-11-29T15-54-48.json / .har, in local time: sorts by name, no characters files dislike. */
export function exportFileName(kind: ExportKind, date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const time = `${pad(date.getHours())}-${pad(date.getMinutes())}-${pad(date.getSeconds())}`;
  const stamp = `${day}T${time}`;
  return `mcp-capture-${stamp}.${kind === 'capture' ? 'json' : 'har'}`;
}

export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Revoking at once can cancel the download in some browsers; a minute is plenty.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
