// Panel: the notice that the inspected page's site is not among the sites the user picked, so nothing of it is
// recorded, with the one click that picks it. Shown only while "Record on" is "only the sites I pick".
import { useSettings } from '../hooks/useSettings';
import type { SettingsAccess } from '../transport';
import { recordsOn, siteOf } from '../../platform/sites';

export function SiteNotRecordedNotice({ access, pageUrl }: { access: SettingsAccess | undefined; pageUrl?: string }) {
  const { settings, save } = useSettings(access);
  if (!settings || pageUrl === undefined || settings.recordOn !== 'picked-sites') return null;
  const site = siteOf(pageUrl);
  if (site === undefined || recordsOn(settings.recordOn, settings.pickedSites, pageUrl)) return null;
  return (
    <div class="notice warning" role="status" data-testid="notice-site-not-recorded" data-site={site}>
      <span class="selectable">{site} is not a site you picked: from its next load on, nothing of it is recorded.</span>
      <button
        type="button"
        class="link"
        data-testid="record-this-site"
        onClick={() => save({ pickedSites: [...settings.pickedSites, site] })}
      >
        Record on {site}
      </button>
      <span class="dim">(then reload the page)</span>
    </div>
  );
}
