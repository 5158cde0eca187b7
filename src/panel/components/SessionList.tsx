// Panel: the sessions column: id, era, origin, counts and the worst finding; picks which session the rest shows.
import { memo } from 'preact/compat';
import type { TargetedKeyboardEvent } from 'preact';
import { formatClock, shortId, formatCount } from '../view/format';
import type { SessionRowData } from '../analysis/messages';
import { RELAYED_LABEL } from '../view/relayed';
import { moveIndex } from '../view/virtualWindow';
import { SeverityIcon } from './Icon';

export interface SessionListProps {
  rows: readonly SessionRowData[];
  totalEvents: number;
  selected: string | undefined;
  onSelect(sessionKey: string | undefined): void;
}

export const SessionList = memo(function SessionList({ rows, totalEvents, selected, onSelect }: SessionListProps) {
  // Row 0 is "All sessions"; row i+1 is rows[i].
  const keys: Array<string | undefined> = [undefined, ...rows.map((r) => r.key)];
  const onKeyDown = (e: TargetedKeyboardEvent<HTMLDivElement>) => {
    const next = moveIndex(e.key, keys.indexOf(selected), keys.length, 10);
    if (next === undefined) return;
    e.preventDefault();
    onSelect(keys[next]);
    e.currentTarget.querySelectorAll<HTMLElement>('[role=option]')[next]?.focus();
  };
  return (
    <div class="sessions" role="listbox" aria-label="Sessions" onKeyDown={onKeyDown}>
      <div class="pane-title">Sessions</div>
      <div
        role="option"
        aria-selected={selected === undefined}
        tabIndex={selected === undefined ? 0 : -1}
        class={`session all ${selected === undefined ? 'selected' : ''}`}
        onClick={() => onSelect(undefined)}
      >
        <span class="session-id">All sessions</span>
        <span class="session-meta num">{formatCount(totalEvents)} events</span>
      </div>
      {rows.map((row) => {
        const s = row;
        const id = s.sessionId ?? s.key;
        const isSelected = selected === row.key;
        const findings = row.counts.error + row.counts.warning + row.counts.info;
        return (
          <div
            key={row.key}
            role="option"
            aria-selected={isSelected}
            tabIndex={isSelected ? 0 : -1}
            data-testid="session-row"
            data-session-id={id}
            title={`${s.stateless ? 'stateless (2026-07-28)' : id}\n${s.endpoint}\nstarted ${formatClock(s.startTime)}`}
            class={`session ${isSelected ? 'selected' : ''}`}
            onClick={() => onSelect(row.key)}
          >
            <span class="session-line">
              {s.stateless ? (
                <span
                  class="session-id session-stateless"
                  data-testid="session-stateless"
                  title="2026-07-28 is stateless: each request stands alone, no session id is expected"
                >
                  stateless
                </span>
              ) : (
                <span class="session-id mono">{s.sessionId ? shortId(s.sessionId) : 'no session id'}</span>
              )}
              <span class="session-era">{s.era}</span>
              <span class="session-worst">
                {row.worst ? (
                  <>
                    <SeverityIcon
                      severity={row.worst}
                      title={`${findings} finding${findings === 1 ? '' : 's'}, worst: ${row.worst}`}
                    />
                    <span class="num">{findings}</span>
                  </>
                ) : (
                  <span class="ok" title="No findings">
                    ✓
                  </span>
                )}
              </span>
            </span>
            <span class="session-meta">{hostOf(s.origin)}</span>
            {s.relayed ? (
              <span class="session-meta session-relayed" data-testid="session-relayed" title={s.relayed}>
                {RELAYED_LABEL}
              </span>
            ) : null}
            <span class="session-meta num">
              {row.streams} str · {row.connections} conn · {row.events} ev
            </span>
            {row.reconnect ? (
              <span
                class="session-meta"
                data-testid="session-reconnect"
                title={`How this session's client reconnects: ${row.reconnect}`}
              >
                {row.reconnect}
              </span>
            ) : null}
          </div>
        );
      })}
    </div>
  );
});

function hostOf(origin: string): string {
  return origin.replace(/^https?:\/\//, '');
}
