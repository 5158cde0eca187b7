// Panel: the notice line under the toolbar: an import that failed or succeeded, or an analysis that failed.
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
