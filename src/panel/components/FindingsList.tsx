// Panel: the findings list: each with its severity, rule id as text and message; a click selects its target.
import { memo } from 'preact/compat';
import { formatCount } from '../view/format';
import type { TargetedKeyboardEvent } from 'preact';
import type { Severity } from '../../core/guard/types';
import { span } from '../../core/guard/silence-facts';
import type { FindingItem, WaitingItem } from '../analysis/messages';
import { moveIndex } from '../view/virtualWindow';
import { BoltIcon } from './BreakMenu';
import { SeverityIcon } from './Icon';

export interface FindingsListProps {
  findings: readonly FindingItem[];
  /** Shown findings the list leaves off (it is capped). */
  leftOff: number;
  /** Findings in the analysis, before any filter. */
  total: number;
  counts: Record<Severity, number>;
  hiddenBySeverity: number;
  /** Key of the selected finding. */
  selected: string | undefined;
  onSelect(key: string): void;
  /** Selects the connection a Break fault struck (a finding's "provoked by" link), or a waiting request's. */
  onSelectConnection(connectionId: string): void;
  /** Requests waiting on open connections, with their running clocks (before any rule says they hang). */
  waiting: readonly WaitingItem[];
}

/** A waiting request's line: the clock runs with every pass (each second while something is open). */
function WaitingRow({ item, onSelect }: { item: WaitingItem; onSelect(connectionId: string): void }) {
  const text = `${item.label} has waited ${span(item.waitedMs)} · no message for ${span(item.quietMs)} · last byte ${span(item.silentMs)} ago`;
  return (
    <div
      class="finding waiting"
      data-testid="waiting"
      data-connection={item.connectionId}
      title={`${text}. Still open: select ${item.connectionId} to see its stream.`}
      onClick={() => onSelect(item.connectionId)}
    >
      <WaitingIcon />
      <span class="finding-rule">waiting</span>
      <span class="finding-text num">{text}</span>
      <span class="finding-time mono dim">{item.connectionId}</span>
    </div>
  );
}

function WaitingIcon() {
  return (
    <svg class="waiting-icon" width="12" height="12" viewBox="0 0 12 12" role="img" aria-label="waiting">
      <circle cx="6" cy="6" r="5" fill="none" stroke="currentColor" stroke-width="1.2" />
      <path d="M6 3v3.2l2.2 1.3" fill="none" stroke="currentColor" stroke-width="1.2" stroke-linecap="round" />
    </svg>
  );
}

export const FindingsList = memo(function FindingsList({
  findings,
  leftOff,
  total,
  counts,
  hiddenBySeverity,
  selected,
  onSelect,
  onSelectConnection,
  waiting,
}: FindingsListProps) {
  const onKeyDown = (e: TargetedKeyboardEvent<HTMLDivElement>) => {
    const at = selected !== undefined ? findings.findIndex((f) => f.key === selected) : -1;
    const next = moveIndex(e.key, at >= 0 ? at : undefined, findings.length, 5);
    if (next === undefined) return;
    e.preventDefault();
    const finding = findings[next];
    if (finding === undefined) return;
    onSelect(finding.key);
    e.currentTarget.querySelectorAll<HTMLElement>('[data-testid=finding]')[next]?.focus();
  };
  return (
    <section class="findings" aria-label="Findings">
      <div class="pane-header">
        <span class="pane-title">Findings</span>
        <span class="pane-hint num">
          {counts.error} error{counts.error === 1 ? '' : 's'} · {counts.warning} warning
          {counts.warning === 1 ? '' : 's'} · {counts.info} info
          {hiddenBySeverity > 0 ? ` · ${hiddenBySeverity} hidden by the severity filter` : ''}
          {waiting.length > 0 ? ` · ${waiting.length} waiting` : ''}
        </span>
      </div>
      <div class="findings-list" role="listbox" aria-label="Findings" onKeyDown={onKeyDown}>
        {waiting.map((item) => (
          <WaitingRow key={`${item.connectionId} ${item.label}`} item={item} onSelect={onSelectConnection} />
        ))}
        {findings.length === 0 && waiting.length === 0 ? (
          <p class="findings-empty dim">
            {total === 0 ? 'No findings: every rule passed.' : 'No findings match the filters.'}
          </p>
        ) : null}
        {findings.map((f, position) => {
          const isSelected = selected === f.key;
          return (
            <div
              key={f.index}
              role="option"
              aria-selected={isSelected}
              tabIndex={isSelected || (selected === undefined && position === 0) ? 0 : -1}
              data-testid="finding"
              data-rule={f.rule}
              data-severity={f.severity}
              class={`finding sev-${f.severity} ${isSelected ? 'selected' : ''}`}
              onClick={() => onSelect(f.key)}
            >
              <SeverityIcon severity={f.severity} />
              <span class="finding-rule mono">{f.rule}</span>
              <span class="finding-text" title={f.message}>
                {f.message}
              </span>
              {f.fault ? (
                <button
                  type="button"
                  class="finding-fault"
                  data-testid="finding-fault"
                  data-fault={f.fault.fault}
                  title={`Provoked by the Break menu's ${f.fault.fault}: ${f.fault.note}. Select where it struck.`}
                  onClick={(e) => {
                    e.stopPropagation();
                    onSelectConnection(f.fault?.connectionId ?? '');
                  }}
                >
                  <BoltIcon />
                  <span class="mono">{f.fault.fault}</span>
                </button>
              ) : null}
              {f.session !== undefined ? <span class="finding-session mono dim">{f.session}</span> : null}
              <span class="finding-time num dim">{f.time}</span>
            </div>
          );
        })}
        {leftOff > 0 ? (
          <p class="findings-more dim" data-testid="findings-left-off">
            {formatCount(leftOff)} more finding{leftOff === 1 ? '' : 's'} not listed: filter to narrow the list.
          </p>
        ) : null}
      </div>
    </section>
  );
});
