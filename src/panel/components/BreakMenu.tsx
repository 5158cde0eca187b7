// Panel: the toolbar's "Break" menu: arms one-shot faults that the tap applies to the inspected page's own MCP
// traffic (the next tools/call response stream, and the resume that follows), against the real server.
import type { TargetedToggleEvent } from 'preact';
import { useId, useRef, useState } from 'preact/hooks';
import type { BreakState } from '../hooks/useBreak';
import { breakSpecs, CUT_CHOICES, DEFAULT_BREAK, RESUME_CHOICES, type BreakChoices } from '../view/breakMenu';

/** A lightning bolt, 16px like the other toolbar icons. */
export const BOLT = 'M9.5 1 3 9.2h4.2L6.3 15 13 6.6H8.7L9.5 1Z';

export function BoltIcon() {
  return (
    <svg class="icon" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
      <path d={BOLT} fill="currentColor" />
    </svg>
  );
}

function placeBelow(anchor: HTMLElement | null, popover: HTMLElement | null): void {
  const box = anchor?.getBoundingClientRect();
  if (!box || !popover) return;
  popover.style.top = `${Math.round(box.bottom + 2)}px`;
  popover.style.left = `${Math.max(4, Math.round(box.left))}px`;
}

export function BreakMenu({ breaker, disabled }: { breaker: BreakState; disabled: boolean }) {
  const [choices, setChoices] = useState<BreakChoices>(DEFAULT_BREAK);
  const button = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  const id = useId();
  // The latest choices, also between a change and its render: Arm right after a pick arms what was picked.
  const latest = useRef(choices);
  const specs = breakSpecs(choices);
  const set = (change: Partial<BreakChoices>) => {
    latest.current = { ...latest.current, ...change };
    setChoices(latest.current);
  };
  const armed = breaker.armed.length > 0;
  const onBeforeToggle = (e: TargetedToggleEvent<HTMLDivElement>) => {
    if (e.newState === 'open') placeBelow(button.current, popover.current);
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        class={`tb-button labelled break-button ${armed ? 'armed' : ''}`}
        data-testid="break-menu"
        title={disabled ? 'Break: for a live page only' : 'Break the page’s next stream or resume, once'}
        popovertarget={id}
        disabled={disabled}
      >
        <BoltIcon />
        <span class="tb-label">Break</span>
      </button>
      <div
        ref={popover}
        id={id}
        popover="auto"
        role="dialog"
        aria-label="Break"
        class="settings-popover break-popover"
        data-testid="break-popover"
        onBeforeToggle={onBeforeToggle}
      >
        <fieldset class="break-group">
          <legend>Next tools/call response stream</legend>
          {CUT_CHOICES.map((c) => (
            <label key={c.value} class="break-choice">
              <input
                type="radio"
                name={`${id}-cut`}
                value={c.value}
                data-testid={`break-cut-${c.value}`}
                checked={choices.cut === c.value}
                onChange={() => set({ cut: c.value })}
              />
              {c.label}
              {c.value === 'cut-mid-event' ? (
                <span class="break-amount">
                  after
                  <input
                    class="settings-number num"
                    type="number"
                    min={0}
                    step={1}
                    aria-label="Bytes into the event's data"
                    data-testid="break-bytes"
                    value={choices.bytes}
                    onInput={(e) => set({ bytes: Number(e.currentTarget.value) })}
                  />
                  bytes of its data
                </span>
              ) : null}
              {c.value === 'cut-at-boundary' ? (
                <span class="break-amount">
                  after
                  <input
                    class="settings-number num"
                    type="number"
                    min={1}
                    step={1}
                    aria-label="Events before the cut"
                    data-testid="break-events"
                    value={choices.events}
                    onInput={(e) => set({ events: Number(e.currentTarget.value) })}
                  />
                  events
                </span>
              ) : null}
            </label>
          ))}
        </fieldset>
        <fieldset class="break-group">
          <legend>Its resume (GET with Last-Event-ID)</legend>
          {RESUME_CHOICES.map((c) => (
            <label key={c.value} class="break-choice">
              <input
                type="radio"
                name={`${id}-resume`}
                value={c.value}
                data-testid={`break-resume-${c.value.replace(':', '-')}`}
                checked={choices.resume === c.value}
                onChange={() => set({ resume: c.value })}
              />
              {c.label}
            </label>
          ))}
        </fieldset>
        <p class="settings-note dim">
          Each fault strikes once, never on initialize; answers made here never reach the server. Disarmed by a reload
          or by closing DevTools.
        </p>
        <div class="break-actions">
          {armed ? (
            <button type="button" class="break-disarm" data-testid="break-disarm" onClick={breaker.disarm}>
              Disarm
            </button>
          ) : null}
          <button
            type="button"
            class="break-arm"
            data-testid="break-arm"
            disabled={specs.length === 0}
            title={specs.join(' then ')}
            onClick={() => {
              breaker.arm(breakSpecs(latest.current));
              popover.current?.hidePopover();
            }}
          >
            Arm
          </button>
        </div>
      </div>
    </>
  );
}
