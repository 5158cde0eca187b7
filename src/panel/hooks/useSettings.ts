// Panel: the extension's settings as a component sees them: loaded, followed wherever they change, written at once.
// Without an extension (an imported file) there are none: `settings` stays undefined.
import { useEffect, useState } from 'preact/hooks';
import type { Settings } from '../../platform/settings';
import type { SettingsAccess } from '../transport';

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Loads the settings, follows changes made anywhere (another panel, a test), and writes the user's changes. */
export function useSettings(access: SettingsAccess | undefined) {
  const [settings, setSettings] = useState<Settings | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!access) return undefined;
    let mounted = true;
    const unwatch = access.watch((next) => mounted && setSettings(next));
    access.read().then(
      // A change heard meanwhile is newer than what the read found.
      (read) => mounted && setSettings((current) => current ?? read),
      (error: unknown) => mounted && setProblem(`Could not read the settings: ${describe(error)}`),
    );
    return () => {
      mounted = false;
      unwatch();
    };
  }, [access]);
  const save = (change: Partial<Settings>) => {
    setSettings((current) => current && { ...current, ...change });
    setSaved(false);
    setProblem(undefined);
    access?.write(change).then(
      () => setSaved(true),
      (error: unknown) => setProblem(`Could not save: ${describe(error)}`),
    );
  };
  return { settings, problem, saved, save };
}
