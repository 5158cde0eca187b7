// Panel: whether the user opted in to keeping credentials ("Record credentials" in the ⚙): then exports and the
// status bar keep them too (docs/redaction.md). False until the settings are read, and without an extension.
import { useEffect, useState } from 'preact/hooks';
import type { SettingsAccess } from '../transport';

export function useRevealSecrets(access: SettingsAccess | undefined): boolean {
  const [reveal, setReveal] = useState(false);
  useEffect(() => {
    if (!access) return undefined;
    let mounted = true;
    let heard = false;
    const unwatch = access.watch((next) => {
      heard = true;
      if (mounted) setReveal(next.revealSecrets);
    });
    access.read().then(
      // A change heard meanwhile is newer than what the read found.
      (read) => mounted && !heard && setReveal(read.revealSecrets),
      // Unreadable settings: stay redacted (the settings menu reports the problem).
      () => undefined,
    );
    return () => {
      mounted = false;
      unwatch();
    };
  }, [access]);
  return reveal;
}
