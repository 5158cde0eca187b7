// Panel (pure): the settings popover's numbers. Storage keeps the buffer in bytes; the user types whole MiB.

const MIB = 1024 * 1024;
export const BUFFER_MIB_MIN = 1;
export const BUFFER_MIB_MAX = 64;

/** The stored budget as the field shows it: MiB, at most two decimals (a budget set elsewhere need not be whole). */
export function bufferFieldValue(bytes: number): string {
  return String(Math.round((bytes / MIB) * 100) / 100);
}

/** What the user typed, as the budget in bytes to store: whole MiB within 1–64; undefined when it is no number. */
export function bufferBytesFromField(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const mib = Number(trimmed);
  if (!Number.isFinite(mib)) return undefined;
  return Math.min(BUFFER_MIB_MAX, Math.max(BUFFER_MIB_MIN, Math.round(mib))) * MIB;
}

export const PANEL_MIB_MIN = 1;
export const PANEL_MIB_MAX = 4096;
export const PANEL_CONNECTIONS_MIN = 10;
export const PANEL_CONNECTIONS_MAX = 1_000_000;

/** What the user typed as a whole number within [min, max]; undefined when it is no number. */
function wholeFromField(text: string, min: number, max: number): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return undefined;
  return Math.min(max, Math.max(min, Math.round(value)));
}

/** The panel's per-tab byte budget typed in MiB, as bytes to store: whole MiB within 1–4096. */
export function panelBytesFromField(text: string): number | undefined {
  const mib = wholeFromField(text, PANEL_MIB_MIN, PANEL_MIB_MAX);
  return mib === undefined ? undefined : mib * MIB;
}

/** The panel's per-tab connection budget as typed: a whole number within 10–1,000,000. */
export function panelConnectionsFromField(text: string): number | undefined {
  return wholeFromField(text, PANEL_CONNECTIONS_MIN, PANEL_CONNECTIONS_MAX);
}
