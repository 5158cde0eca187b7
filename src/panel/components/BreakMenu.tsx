// Panel: the toolbar's "Break" menu: arms one-shot faults that the tap applies to the inspected page's own MCP
// traffic (the next tools/call response stream: a cut, an idle cut, a stall or a buffer, or every quiet stream as an
// idle proxy cuts them; and the resume that follows), against the real server. The choices are the proxy's fault
// specs (view/breakMenu.ts).
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import type { BreakState } from '../hooks/useBreak';
import { useToolbarPopover } from '../hooks/useToolbarPopover';
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

export function BreakMenu({ breaker, disabled }: { breaker: BreakState; disabled: boolean }) {
  const [choices, setChoices] = useState<BreakChoices>(DEFAULT_BREAK);
  const { id, button, popover, onBeforeToggle, onToggle } = useToolbarPopover('left');
  // The latest choices, also between a change and its render: Arm right after a pick arms what was picked.
  const latest = useRef(choices);
  const specs = breakSpecs(choices);
  const set = (change: Partial<BreakChoices>) => {
    latest.current = { ...latest.current, ...change };
    setChoices(latest.current);
  };
  const armed = breaker.armed.length > 0;
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
        onToggle={onToggle}
      >
        <ChoiceGroup
          legend="Next tools/call response stream, or every stream"
          name={`${id}-cut`}
          choices={CUT_CHOICES}
          value={choices.cut}
          testId={(value) => `break-cut-${value.replace(/[:@]/g, '-')}`}
          onPick={(cut) => set({ cut })}
          extra={(value) =>
            value === 'cut-mid-event' ? (
              <Amount
                label="Bytes into the event's data"
                testId="break-bytes"
                min={0}
                value={choices.bytes}
                unit="bytes of its data"
                onValue={(bytes) => set({ bytes })}
              />
            ) : value === 'cut-at-boundary' ? (
              <Amount
                label="Events before the cut"
                testId="break-events"
                min={1}
                value={choices.events}
                unit="events"
                onValue={(events) => set({ events })}
              />
            ) : value === 'idle-cut' ? (
              <Amount
                label="Seconds of silence before the cut"
                testId="break-seconds"
                min={0.001}
                step="any"
                value={choices.seconds}
                unit="s with no byte"
                onValue={(seconds) => set({ seconds })}
              />
            ) : value === 'idle-cut@every' ? (
              <Amount
                label="Seconds of silence before each cut"
                testId="break-every-seconds"
                min={0.001}
                step="any"
                value={choices.everySeconds}
                unit="s with no byte, until Disarm"
                onValue={(everySeconds) => set({ everySeconds })}
              />
            ) : value === 'stall' ? (
              <Amount
                label="Milliseconds the stream stops"
                testId="break-ms"
                prefix="for"
                min={1}
                value={choices.ms}
                unit="ms"
                onValue={(ms) => set({ ms })}
              />
            ) : null
          }
        />
        <ChoiceGroup
          legend="Its resume (GET with Last-Event-ID)"
          name={`${id}-resume`}
          choices={RESUME_CHOICES}
          value={choices.resume}
          testId={(value) => `break-resume-${value.replace(':', '-')}`}
          onPick={(resume) => set({ resume })}
        />
        <p class="settings-note dim">
          Each fault strikes once (“every”: until Disarm), never on initialize; answers made here never reach the
          server. Silence counts from the response head. Disarmed by a reload or by closing DevTools.
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

/** One fieldset of radio choices; `extra` adds a choice's own amount after its label. */
function ChoiceGroup<T extends string>(props: {
  legend: string;
  name: string;
  choices: readonly { value: T; label: string }[];
  value: T;
  testId(value: T): string;
  onPick(value: T): void;
  extra?(value: T): ComponentChildren;
}) {
  return (
    <fieldset class="break-group">
      <legend>{props.legend}</legend>
      {props.choices.map((c) => (
        <label key={c.value} class="break-choice">
          <input
            type="radio"
            name={props.name}
            value={c.value}
            data-testid={props.testId(c.value)}
            checked={props.value === c.value}
            onChange={() => props.onPick(c.value)}
          />
          {c.label}
          {props.extra?.(c.value)}
        </label>
      ))}
    </fieldset>
  );
}

/** "after [N] unit" (or "for [N] unit"): how far into the stream, or how long, a fault strikes. */
function Amount(props: {
  label: string;
  testId: string;
  prefix?: string;
  min: number;
  /** "any" for seconds with decimals; whole numbers otherwise. */
  step?: number | 'any';
  value: number;
  unit: string;
  onValue(value: number): void;
}) {
  return (
    <span class="break-amount">
      {props.prefix ?? 'after'}
      <input
        class="settings-number num"
        type="number"
        min={props.min}
        step={props.step ?? 1}
        aria-label={props.label}
        data-testid={props.testId}
        value={props.value}
        onInput={(e) => props.onValue(Number(e.currentTarget.value))}
      />
      {props.unit}
    </span>
  );
}
