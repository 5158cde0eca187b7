// Panel: the notice lines under the toolbar: an import that failed or succeeded, an analysis that failed, and what
// the analysis could not see in what it was given.
import type { AnalysisNoticeData } from '../analysis/messages';
import type { ImportProgress, PanelState } from '../state/store';
import { formatBytes } from '../view/format';

export interface NoticeProps {
  notice: PanelState['notice'];
  /** An analysis failure: shown while it lasts, not dismissable. */
  error: string | undefined;
  onDismiss(): void;
}

export function Notice({ notice, error, onDismiss }: NoticeProps) {
  if (!notice && !error) return null;
  const isError = Boolean(error) || notice?.kind === 'error';
  return (
    <div class={`notice ${isError ? 'error' : ''}`} role="status">
      <span class="selectable">{error ?? notice?.text}</span>
      {notice ? (
        <button type="button" class="link" onClick={onDismiss}>
          Dismiss
        </button>
      ) : null}
    </div>
  );
}

/** An import under way: how much of the file the worker has read, and a way to stop it. */
export function ImportNotice({ importing, onCancel }: { importing: ImportProgress | undefined; onCancel(): void }) {
  if (!importing) return null;
  const { name, bytes, total } = importing;
  const percent = total > 0 ? Math.floor((bytes / total) * 100) : 0;
  return (
    <div class="notice importing" role="status" data-testid="import-progress">
      <span class="selectable">
        Importing {name}: {formatBytes(bytes)} of {formatBytes(total)}
      </span>
      <progress max={100} value={percent} aria-label={`Import of ${name}`} />
      <span class="import-percent">{percent}%</span>
      <button type="button" class="link" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** The analysis's own notices (a HAR without the bodies of its cut streams): shown while they hold. */
export function AnalysisNotices({ notices }: { notices: readonly AnalysisNoticeData[] }) {
  return (
    <>
      {notices.map((n) => (
        <div key={n.kind} class="notice warning" role="status" data-testid={`notice-${n.kind}`}>
          <span class="selectable">{n.message}</span>
        </div>
      ))}
    </>
  );
}
