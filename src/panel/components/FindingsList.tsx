// Panel: the findings list: each with its severity, rule id as text and message; a click selects its target.
import type { TargetedKeyboardEvent } from 'preact';
import type { Severity } from '../../core/guard/types';
import { formatRelMs, shortId } from '../view/format';
import type { PanelView } from '../view/model';
import { moveIndex } from '../view/virtualWindow';
import { SeverityIcon } from './Icon';

export interface FindingsListProps {
  view: PanelView;
  indexes: readonly number[];
  counts: Record<Severity, number>;
  hiddenBySeverity: number;
  selected: number | undefined;
  onSelect(findingIndex: number): void;
}

export function FindingsList({ view, indexes, counts, hiddenBySeverity, selected, onSelect }: FindingsListProps) {
  const onKeyDown = (e: TargetedKeyboardEvent<HTMLDivElement>) => {
    const at = selected !== undefined ? indexes.indexOf(selected) : -1;
    const next = moveIndex(e.key, at >= 0 ? at : undefined, indexes.length, 5);
    if (next === undefined) return;
    e.preventDefault();
    const index = indexes[next];
    if (index === undefined) return;
    onSelect(index);
    e.currentTarget.querySelectorAll<HTMLElement>('[data-testid=finding]')[next]?.focus();
  };
  const multipleSessions = view.analysis.sessions.length > 1;
  return (
    <section class="findings" aria-label="Findings">
      <div class="pane-header">
        <span class="pane-title">Findings</span>
        <span class="pane-hint num">
          {counts.error} error{counts.error === 1 ? '' : 's'} · {counts.warning} warning
          {counts.warning === 1 ? '' : 's'} · {counts.info} info
          {hiddenBySeverity > 0 ? ` · ${hiddenBySeverity} hidden by the severity filter` : ''}
        </span>
      </div>
      <div class="findings-list" role="listbox" aria-label="Findings" onKeyDown={onKeyDown}>
        {indexes.length === 0 ? (
          <p class="findings-empty dim">
            {view.analysis.findings.length === 0 ? 'No findings: every rule passed.' : 'No findings match the filters.'}
          </p>
        ) : null}
        {indexes.map((i, position) => {
          const f = view.analysis.findings[i];
          if (!f) return null;
          const target = view.findingTargets[i];
          const session = target?.sessionKey !== undefined ? view.sessionsByKey.get(target.sessionKey) : undefined;
          const isSelected = selected === i;
          return (
            <div
              key={i}
              role="option"
              aria-selected={isSelected}
              tabIndex={isSelected || (selected === undefined && position === 0) ? 0 : -1}
              data-testid="finding"
              data-rule={f.rule}
              data-severity={f.severity}
              class={`finding sev-${f.severity} ${isSelected ? 'selected' : ''}`}
              onClick={() => onSelect(i)}
            >
              <SeverityIcon severity={f.severity} />
              <span class="finding-rule mono">{f.rule}</span>
              <span class="finding-text" title={f.message}>
                {f.message}
              </span>
              {multipleSessions && session ? (
                <span class="finding-session mono dim">{shortId(session.sessionId ?? session.key)}</span>
              ) : null}
              <span class="finding-time num dim">
                {target?.time !== undefined && session ? `${formatRelMs(target.time - session.startTime)} ms` : ''}
              </span>
            </div>
          );
        })}
      </div>
    </section>
  );
}
