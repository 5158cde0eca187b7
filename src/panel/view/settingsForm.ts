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
