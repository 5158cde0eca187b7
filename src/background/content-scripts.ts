// Worker: keeps the registered tap and bridge in step with the "Record on" setting (src/platform/sites.ts). They
// are registered at run time, not in the manifest, so that "only the sites I pick" really keeps them off every other
// site. Registrations persist across browser restarts; each worker start checks them again, and a settings change
// re-registers. Pages already open keep what they loaded with; the next load follows the setting.
import { browser } from '../platform/browser';
import { readSettings, watchSettings, type Settings } from '../platform/settings';
import { sameRegistration, siteScripts, type RegisteredScript, type SiteScript } from '../platform/sites';

async function apply(settings: Settings): Promise<void> {
  const wanted: SiteScript[] = siteScripts(settings.recordOn, settings.pickedSites);
  const registered: RegisteredScript[] = await browser.scripting.getRegisteredContentScripts();
  if (sameRegistration(registered, wanted)) return;
  if (registered.length > 0) await browser.scripting.unregisterContentScripts();
  if (wanted.length > 0) await browser.scripting.registerContentScripts(wanted);
}

let queue: Promise<void> = Promise.resolve();

/**
 * Brings the registration in line with `settings`, one change at a time in the order asked. A failure rejects the
 * promise returned (left unhandled, the browser lists it on the extension's errors page) but not the next sync.
 */
function sync(settings: Promise<Settings>): Promise<void> {
  const done = queue.then(async () => apply(await settings));
  queue = done.catch(() => undefined);
  return done;
}

/** Registers now and on every settings change; resolves once the first registration is in place. */
export function followRecordOn(): Promise<void> {
  watchSettings((settings) => void sync(Promise.resolve(settings)));
  return sync(readSettings());
}
