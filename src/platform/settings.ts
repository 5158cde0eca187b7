// Extension contexts: user settings kept in storage.local, shared by the bridge (buffer size, secrets) and the panel.
import { browser } from './browser';

export interface Settings {
  /** Per-frame buffer budget in bytes, for what a panel opened later still gets (default 4 MiB). */
  bufferBytes: number;
  /** Record Authorization, Cookie and similar headers in clear (default off: redacted at the source). */
  revealSecrets: boolean;
}

export const DEFAULT_SETTINGS: Settings = { bufferBytes: 4 * 1024 * 1024, revealSecrets: false };

const KEYS = { bufferBytes: 'settings.bufferBytes', revealSecrets: 'settings.revealSecrets' } as const;
const MIN_BUFFER = 64 * 1024;
const MAX_BUFFER = 512 * 1024 * 1024;

function fromStored(stored: Record<string, unknown>): Settings {
  const size = stored[KEYS.bufferBytes];
  const reveal = stored[KEYS.revealSecrets];
  return {
    bufferBytes:
      typeof size === 'number' && Number.isFinite(size)
        ? Math.min(MAX_BUFFER, Math.max(MIN_BUFFER, Math.floor(size)))
        : DEFAULT_SETTINGS.bufferBytes,
    revealSecrets: typeof reveal === 'boolean' ? reveal : DEFAULT_SETTINGS.revealSecrets,
  };
}

export async function readSettings(): Promise<Settings> {
  return fromStored(await browser.storage.local.get(Object.values(KEYS)));
}

export async function writeSettings(change: Partial<Settings>): Promise<void> {
  const stored: Record<string, unknown> = {};
  if (change.bufferBytes !== undefined) stored[KEYS.bufferBytes] = change.bufferBytes;
  if (change.revealSecrets !== undefined) stored[KEYS.revealSecrets] = change.revealSecrets;
  await browser.storage.local.set(stored);
}

/** Calls `listener` with the full settings whenever one of them changes. */
export function watchSettings(listener: (settings: Settings) => void): void {
  browser.storage.onChanged.addListener((changes, area) => {
    if (area !== 'local' || !Object.values(KEYS).some((key) => key in changes)) return;
    readSettings().then(listener, () => listener(DEFAULT_SETTINGS));
  });
}
