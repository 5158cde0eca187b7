// Panel: the banner under the toolbar while Break faults are armed: what will strike, what already did.
import type { BreakState } from '../hooks/useBreak';
import { describeFault } from '../view/breakMenu';
import { BoltIcon } from './BreakMenu';

const TITLES: Record<BreakState['status'], string> = {
  sending: 'Arming…',
  armed: 'Armed',
  absent: 'Not armed: the page has no tap (reload it)',
};

export function BreakBanner({ breaker }: { breaker: BreakState }) {
  if (breaker.armed.length === 0) return null;
  return (
    <div class="break-banner" role="status" data-testid="break-banner" data-state={breaker.status}>
      <BoltIcon />
      <span class="break-banner-title">{TITLES[breaker.status]}</span>
      <ol class="break-banner-list">
        {breaker.armed.map((f) => (
          <li key={f.spec} class={f.struck ? 'struck' : ''} data-fault={f.spec} title={f.spec}>
            {describeFault(f.spec)}
            {f.struck ? ' (struck)' : ''}
          </li>
        ))}
      </ol>
      <button type="button" class="tb-link" data-testid="break-banner-disarm" onClick={breaker.disarm}>
        Disarm
      </button>
    </div>
  );
}
