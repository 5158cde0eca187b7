// Extension contexts: user settings kept in storage.local, shared by the bridge (buffer size, secrets) and the panel.
import { browser } from './browser';
import { normalizeSites, type RecordOn } from './sites';

export interface Settings {
  /** Per-frame buffer budget in bytes, for what a panel opened later still gets (default 4 MiB). */
  bufferBytes: number;
  /** Record Authorization, Cookie and similar headers in clear (default off: redacted at the source). */
  revealSecrets: boolean;
  /** Per-tab budget of what the panel holds, in bytes (default 256 MiB). */
  panelBytes: number;
  /** Per-tab budget of the connections the panel holds (default 5,000). */
  panelConnections: number;
  /** Where the tap and bridge run: every site (default), or only the sites in pickedSites. */
  recordOn: RecordOn;
  /** Sites ("https://example.com") recorded when recordOn is 'picked-sites', in the order picked. */
  pickedSites: string[];
  /** request-hang: a request waiting with no message on its open stream this many seconds (default 30). */
  hangAfterSeconds: number;
  /** idle-timeout-cut: streams cut after the same silence of at least this many seconds (default 1). */
  idleCutAfterSeconds: number;
  /** buffered-stream: a stream whose first byte came this many seconds after its request (default 1). */
  bufferedAfterSeconds: number;
}

const MIB = 1024 * 1024;

export const DEFAULT_SETTINGS: Settings = {
  bufferBytes: 4 * MIB,
  revealSecrets: false,
  panelBytes: 256 * MIB,
  panelConnections: 5000,
  recordOn: 'every-site',
  pickedSites: [],
  hangAfterSeconds: 30,
  idleCutAfterSeconds: 1,
  bufferedAfterSeconds: 1,
};

const KEYS = {
  bufferBytes: 'settings.bufferBytes',
  revealSecrets: 'settings.revealSecrets',
  panelBytes: 'settings.panelBytes',
  panelConnections: 'settings.panelConnections',
  recordOn: 'settings.recordOn',
  pickedSites: 'settings.pickedSites',
  hangAfterSeconds: 'settings.hangAfterSeconds',
  idleCutAfterSeconds: 'settings.idleCutAfterSeconds',
  bufferedAfterSeconds: 'settings.bufferedAfterSeconds',
} as const;
/** The range each number is clamped to (the panel's worker refuses a budget outside its own, the same). */
const RANGES = {
  bufferBytes: [64 * 1024, 512 * MIB],
  panelBytes: [1 * MIB, 4096 * MIB],
  panelConnections: [10, 1_000_000],
  hangAfterSeconds: [1, 86_400],
  idleCutAfterSeconds: [1, 86_400],
  bufferedAfterSeconds: [1, 86_400],
} as const;

function number(stored: Record<string, unknown>, key: keyof typeof RANGES): number {
  const value = stored[KEYS[key]];
  const [min, max] = RANGES[key];
  return typeof value === 'number' && Number.isFinite(value)
    ? Math.min(max, Math.max(min, Math.floor(value)))
    : DEFAULT_SETTINGS[key];
}

function fromStored(stored: Record<string, unknown>): Settings {
  const reveal = stored[KEYS.revealSecrets];
  const recordOn = stored[KEYS.recordOn];
  return {
    bufferBytes: number(stored, 'bufferBytes'),
    revealSecrets: typeof reveal === 'boolean' ? reveal : DEFAULT_SETTINGS.revealSecrets,
    panelBytes: number(stored, 'panelBytes'),
    panelConnections: number(stored, 'panelConnections'),
    recordOn: recordOn === 'picked-sites' ? 'picked-sites' : 'every-site',
    pickedSites: normalizeSites(stored[KEYS.pickedSites]),
    hangAfterSeconds: number(stored, 'hangAfterSeconds'),
    idleCutAfterSeconds: number(stored, 'idleCutAfterSeconds'),
    bufferedAfterSeconds: number(stored, 'bufferedAfterSeconds'),
  };
}

export async function readSettings(): Promise<Settings> {
  return fromStored(await browser.storage.local.get(Object.values(KEYS)));
}

export async function writeSettings(change: Partial<Settings>): Promise<void> {
  const stored: Record<string, unknown> = {};
  for (const key of Object.keys(KEYS) as (keyof Settings)[])
    if (change[key] !== undefined) stored[KEYS[key]] = change[key];
  await browser.storage.local.set(stored);
}

/** Calls `listener` with the full settings whenever one of them changes. */
export function watchSettings(listener: (settings: Settings) => void): void {
  browser.storage.onChanged.addListener((changes, area) => {
    if (area !== 'local' || !Object.values(KEYS).some((key) => key in changes)) return;
    readSettings().then(listener, () => listener(DEFAULT_SETTINGS));
  });
}
