// Node (store check): what the Chrome Web Store refuses or flags in a built manifest, checked before a package is
// made. The limits are the store's published ones (developer.chrome.com: manifest "description", "name", "icons";
// Web Store program policies on permissions).

export type Manifest = Record<string, unknown>;

/** The store's limit on the manifest's description, which it shows as the item's summary. */
export const SUMMARY_MAX = 132;
const NAME_MAX = 75;
/** Chrome clones extension messages (Blobs included) only from this version (INTERNALS: message_serialization). */
const STRUCTURED_CLONE_CHROME = 148;

/** Keys that belong to other browsers or to self-hosting: the store refuses `key`/`update_url`, Chrome warns on the rest. */
const FOREIGN_KEYS: Record<string, string> = {
  key: 'the store assigns the extension its key; an upload that carries one is refused',
  update_url: 'store items are updated by the store; an upload that points elsewhere is refused',
  browser_specific_settings: "Firefox's key: Chrome warns 'Unrecognized manifest key'",
  applications: "Firefox's old key: Chrome warns 'Unrecognized manifest key'",
};

/**
 * Problems of a Chrome build's manifest as the Web Store sees them; [] when there are none.
 * @param justified the permissions (and host patterns) the store listing justifies (docs/store/PRIVACY.md).
 */
export function chromeManifestProblems(manifest: Manifest, justified: readonly string[]): string[] {
  const problems: string[] = [];
  if (manifest.manifest_version !== 3) problems.push('manifest_version: the store takes Manifest V3 only');
  for (const [key, why] of Object.entries(FOREIGN_KEYS)) if (key in manifest) problems.push(`${key}: ${why}`);
  const name = manifest.name;
  if (typeof name !== 'string' || name.length === 0 || name.length > NAME_MAX)
    problems.push(`name: 1 to ${NAME_MAX} characters`);
  const description = manifest.description;
  if (typeof description !== 'string' || description.length === 0 || description.length > SUMMARY_MAX)
    problems.push(`description: the store's summary, 1 to ${SUMMARY_MAX} characters`);
  const icons = manifest.icons as Record<string, unknown> | undefined;
  if (typeof icons?.['128'] !== 'string') problems.push('icons: the store needs a 128x128 icon');
  const background = manifest.background as Record<string, unknown> | undefined;
  if (background && (typeof background.service_worker !== 'string' || 'scripts' in background))
    problems.push("background: Chrome's MV3 runs a service_worker, not scripts");
  if (manifest.message_serialization === 'structured_clone') {
    const version = manifest.minimum_chrome_version;
    const min = typeof version === 'string' ? Number.parseInt(version, 10) : 0;
    if (!(min >= STRUCTURED_CLONE_CHROME))
      problems.push(
        `minimum_chrome_version: structured_clone messaging needs Chrome ${STRUCTURED_CLONE_CHROME}; older ones would install a panel that receives nothing`,
      );
  }
  for (const permission of requested(manifest))
    if (!justified.includes(permission)) problems.push(`${permission}: requested, but not justified for the store`);
  return problems;
}

/** Every permission and host pattern a manifest asks for. */
function requested(manifest: Manifest): string[] {
  const lists = ['permissions', 'optional_permissions', 'host_permissions', 'optional_host_permissions'];
  const all = lists.flatMap((key) => (Array.isArray(manifest[key]) ? (manifest[key] as unknown[]) : []));
  const scripts = Array.isArray(manifest.content_scripts) ? (manifest.content_scripts as { matches?: unknown }[]) : [];
  for (const script of scripts) if (Array.isArray(script.matches)) all.push(...(script.matches as unknown[]));
  return [...new Set(all.map(String))];
}

/** The permission names of a Markdown table's first column (`| \`storage\` | why |`). */
export function justifiedPermissions(markdown: string): string[] {
  return [...markdown.matchAll(/^\| `([^`]+)`/gm)].map((m) => m[1] as string);
}
