// Panel: the notice that the inspected page's site is not among the sites the user picked, so nothing of it is
// recorded, with the one click that picks it. Shown only while "Record on" is "only the sites I pick".
import type { Settings } from '../../platform/settings';
import { recordsOn, siteOf } from '../../platform/sites';

interface Props {
  /** The panel's settings as App follows them (undefined until read, or without an extension). */
  settings: Settings | undefined;
  save(change: Partial<Settings>): void;
  pageUrl: string;
}

export function SiteNotRecordedNotice({ settings, save, pageUrl }: Props) {
  if (!settings || settings.recordOn !== 'picked-sites') return null;
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
