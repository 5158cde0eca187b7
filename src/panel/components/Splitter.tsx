// Panel: a drag handle between two panes (keyboard: arrows move it by 10 px).
import type { TargetedKeyboardEvent, TargetedPointerEvent } from 'preact';
import { useRef } from 'preact/hooks';

export function Splitter({ axis, label, onResize }: { axis: 'x' | 'y'; label: string; onResize(delta: number): void }) {
  const last = useRef<number | undefined>(undefined);
  const position = (e: PointerEvent) => (axis === 'x' ? e.clientX : e.clientY);
  const onPointerDown = (e: TargetedPointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    last.current = position(e);
  };
  const onPointerMove = (e: TargetedPointerEvent<HTMLDivElement>) => {
    if (last.current === undefined) return;
    const now = position(e);
    onResize(now - last.current);
    last.current = now;
  };
  const onKeyDown = (e: TargetedKeyboardEvent<HTMLDivElement>) => {
    const steps: Record<string, number> = { ArrowLeft: -10, ArrowUp: -10, ArrowRight: 10, ArrowDown: 10 };
    const step = steps[e.key];
    if (step === undefined) return;
    e.preventDefault();
    onResize(step);
  };
  return (
    <div
      class={`splitter splitter-${axis}`}
      role="separator"
      aria-orientation={axis === 'x' ? 'vertical' : 'horizontal'}
      aria-label={label}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={() => (last.current = undefined)}
      onKeyDown={onKeyDown}
    />
  );
}
