// Panel (settings popover): where the extension records: every site, or only the sites the user picked. The tap and
// bridge are registered to match (src/background/content-scripts.ts); pages already open keep what they loaded with.
import { useState } from 'preact/hooks';
import type { Settings } from '../../platform/settings';
import { siteOf } from '../../platform/sites';

interface Props {
  id: string;
  settings: Settings;
  save(change: Partial<Settings>): void;
  /** The inspected page, to offer its site. */
  pageUrl: string | undefined;
}

export function RecordOnFields({ id, settings, save, pageUrl }: Props) {
  const [typed, setTyped] = useState('');
  const picked = settings.recordOn === 'picked-sites';
  const sites = settings.pickedSites;
  const pageSite = pageUrl === undefined ? undefined : siteOf(pageUrl);
  const typedSite = siteOf(typed);
  const add = (site: string) => {
    if (!sites.includes(site)) save({ pickedSites: [...sites, site] });
  };
  return (
    <fieldset class="settings-record-on" data-testid="record-on">
      <legend class="settings-label">Record on</legend>
      <label class="settings-choice">
        <input
          type="radio"
          name={`${id}-record-on`}
          data-testid="record-every-site"
          checked={!picked}
          onChange={() => save({ recordOn: 'every-site' })}
        />
        Every site
      </label>
      <label class="settings-choice">
        <input
          type="radio"
          name={`${id}-record-on`}
          data-testid="record-picked-sites"
          checked={picked}
          onChange={() => save({ recordOn: 'picked-sites' })}
        />
        Only the sites I pick{picked && sites.length === 0 ? ' (none yet: nothing is recorded)' : ''}
      </label>
      {picked ? (
        <div class="settings-sites">
          <ul class="settings-site-list" data-testid="picked-sites">
            {sites.map((site) => (
              <li key={site} class="settings-site" data-site={site}>
                <span class="selectable">{site}</span>
                <button
                  type="button"
                  class="link"
                  aria-label={`Stop recording on ${site}`}
                  onClick={() => save({ pickedSites: sites.filter((s) => s !== site) })}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
          {pageSite && !sites.includes(pageSite) ? (
            <button type="button" class="link" data-testid="pick-this-site" onClick={() => add(pageSite)}>
              Add this page's site, {pageSite}
            </button>
          ) : null}
          <form
            class="settings-field"
            onSubmit={(e) => {
              e.preventDefault();
              if (typedSite) add(typedSite);
              setTyped('');
            }}
          >
            <input
              class="settings-site-input"
              type="text"
              placeholder="example.com or http://localhost"
              aria-label="Site to record on"
              data-testid="site-input"
              value={typed}
              onInput={(e) => setTyped(e.currentTarget.value)}
            />
            <button type="submit" class="link" disabled={typedSite === undefined}>
              Add
            </button>
          </form>
          <p class="settings-hint dim">
            A site is its scheme and host, every port and path of it. Elsewhere neither the tap nor the bridge runs.
          </p>
        </div>
      ) : null}
    </fieldset>
  );
}
