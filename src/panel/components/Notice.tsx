// Panel: the notice lines under the toolbar: an import that failed or succeeded, an analysis that failed, and what
// the analysis could not see in what it was given.
import type { AnalysisNoticeData } from '../analysis/messages';
import type { PanelState } from '../state/store';

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
