// Panel: a toolbar button's popover. It sits in the top layer (the toolbar's overflow cannot clip it) and hangs
// below its button, aligned with the button's left or right edge, following the window while it is open.
import type { TargetedToggleEvent } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';

export interface ToolbarPopover {
  /** The popover's id, for the button's `popovertarget`. */
  id: string;
  button: { current: HTMLButtonElement | null };
  popover: { current: HTMLDivElement | null };
  onBeforeToggle(e: TargetedToggleEvent<HTMLDivElement>): void;
  onToggle(e: TargetedToggleEvent<HTMLDivElement>): void;
}

function placeBelow(anchor: HTMLElement | null, popover: HTMLElement | null, align: 'left' | 'right'): void {
  const box = anchor?.getBoundingClientRect();
  if (!box || !popover) return;
  popover.style.top = `${Math.round(box.bottom + 2)}px`;
  if (align === 'left') popover.style.left = `${Math.max(4, Math.round(box.left))}px`;
  else popover.style.right = `${Math.max(4, Math.round(document.documentElement.clientWidth - box.right))}px`;
}

/** `onOpenChange` hears each open and close (the settings form drops its draft then). */
export function useToolbarPopover(align: 'left' | 'right', onOpenChange?: (open: boolean) => void): ToolbarPopover {
  const button = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  const id = useId();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open) return undefined;
    const onResize = () => placeBelow(button.current, popover.current, align);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [open, align]);
  return {
    id,
    button,
    popover,
    onBeforeToggle: (e) => {
      if (e.newState === 'open') placeBelow(button.current, popover.current, align);
    },
    onToggle: (e) => {
      setOpen(e.newState === 'open');
      onOpenChange?.(e.newState === 'open');
    },
  };
}
