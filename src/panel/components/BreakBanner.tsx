// Panel: the banner under the toolbar while Break faults are armed: what will strike, what already did.
import type { ArmedFault, BreakState } from '../hooks/useBreak';
import { describeFault } from '../view/breakMenu';
import { BoltIcon } from './BreakMenu';

const TITLES: Record<BreakState['status'], string> = {
  sending: 'Arming…',
  armed: 'Armed',
  absent: 'Not armed: the page has no tap (reload it)',
};

function struckNote(f: ArmedFault): string {
  if (f.strikes === 0) return f.untilDisarmed ? ' (until Disarm)' : '';
  if (!f.untilDisarmed) return ' (struck)';
  return ` (struck ${f.strikes} time${f.strikes === 1 ? '' : 's'}, until Disarm)`;
}

export function BreakBanner({ breaker }: { breaker: BreakState }) {
  if (breaker.armed.length === 0) return null;
  return (
    <div class="break-banner" role="status" data-testid="break-banner" data-state={breaker.status}>
      <BoltIcon />
      <span class="break-banner-title">{TITLES[breaker.status]}</span>
      <ol class="break-banner-list">
        {breaker.armed.map((f) => (
          <li
            key={f.spec}
            class={f.strikes > 0 && !f.untilDisarmed ? 'struck' : ''}
            data-fault={f.spec}
            data-strikes={f.strikes}
            title={f.spec}
          >
            {describeFault(f.spec)}
            {struckNote(f)}
          </li>
        ))}
      </ol>
      <button type="button" class="tb-link" data-testid="break-banner-disarm" onClick={breaker.disarm}>
        Disarm
      </button>
    </div>
  );
}
