// Panel: the settings' silence thresholds (request-hang, idle-timeout-cut, buffered-stream), in whole seconds.
import { useState } from 'preact/hooks';
import type { Settings } from '../../platform/settings';

type Field = 'hangAfterSeconds' | 'idleCutAfterSeconds' | 'bufferedAfterSeconds';

const FIELDS: readonly { field: Field; label: string; testId: string }[] = [
  { field: 'hangAfterSeconds', label: 'A request hangs after', testId: 'hang-after' },
  { field: 'idleCutAfterSeconds', label: 'cuts after the same silence of at least', testId: 'idle-cut-after' },
  { field: 'bufferedAfterSeconds', label: 'a stream is held when its first byte waits', testId: 'buffered-after' },
];

const MIN = 1;
const MAX = 86_400;

/** The seconds typed, as the setting takes them (whole, clamped), or undefined when it is not a number. */
function secondsFromField(text: string): number | undefined {
  const value = Number(text);
  return text.trim() === '' || !Number.isFinite(value) ? undefined : Math.min(MAX, Math.max(MIN, Math.floor(value)));
}

export function SilenceFields({
  id,
  settings,
  save,
}: {
  id: string;
  settings: Settings;
  save(change: Partial<Settings>): void;
}) {
  // What the user is typing, committed (clamped) on change: Enter, blur or the spinner.
  const [drafts, setDrafts] = useState<Partial<Record<Field, string>>>({});
  return (
    <>
      <span class="settings-label" id={`${id}-silence`}>
        Silence rules
      </span>
      <span class="settings-field settings-silence" role="group" aria-labelledby={`${id}-silence`}>
        {FIELDS.map(({ field, label, testId }) => (
          <span key={field} class="settings-silence-field">
            {label}
            <input
              class="settings-number settings-count num"
              type="number"
              min={MIN}
              max={MAX}
              step={1}
              aria-label={`${label} (seconds)`}
              data-testid={testId}
              aria-describedby={`${id}-silence-hint`}
              value={drafts[field] ?? String(settings[field])}
              onInput={(e) => setDrafts((d) => ({ ...d, [field]: e.currentTarget.value }))}
              onChange={(e) => {
                const seconds = secondsFromField(e.currentTarget.value);
                setDrafts((d) => ({ ...d, [field]: undefined }));
                if (seconds !== undefined && seconds !== settings[field]) save({ [field]: seconds });
              }}
            />
            s
          </span>
        ))}
      </span>
      <p class="settings-hint dim" id={`${id}-silence-hint`}>
        When request-hang, idle-timeout-cut and buffered-stream speak; requests still waiting are listed with their
        clocks above the findings whatever these say.
      </p>
    </>
  );
}
