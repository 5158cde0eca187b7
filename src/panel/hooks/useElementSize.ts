// Panel: tracks an element's content size (the timeline draws in pixels, the virtualized table renders what fits,
// the workspace layout follows the space DevTools gives the panel).
import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

export interface ElementSize {
  width: number;
  height: number;
}

const UNMEASURED: ElementSize = { width: 0, height: 0 };

/** A ref to attach, and the attached element's content size in whole pixels (0 x 0 until measured). */
export function useElementSize<T extends HTMLElement>(): [RefObject<T | null>, ElementSize] {
  const ref = useRef<T>(null);
  const [element, setElement] = useState<T | null>(null);
  const [size, setSize] = useState(UNMEASURED);
  // No dependency list on purpose: the element behind the ref may mount later or be replaced on any render
  // (the workspace appears once the first analysis is ready), so every commit checks which one is attached.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- set only when the attached element changed: no loop
  useEffect(() => {
    if (ref.current !== element) setElement(ref.current);
  });
  useEffect(() => {
    if (!element) return undefined;
    let first = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new ResizeObserver((entries) => {
      const rect = entries[0]?.contentRect;
      if (!rect) return;
      const next = { width: Math.floor(rect.width), height: Math.floor(rect.height) };
      const apply = () => setSize((s) => (s.width === next.width && s.height === next.height ? s : next));
      if (!first) {
        apply();
        return;
      }
      // The first size arrives inside the frame that laid the element out: the render it causes (the table's rows,
      // the timeline's ticks) goes in a task of its own, so that frame and that render are two tasks, not one long one.
      first = false;
      timer = setTimeout(apply, 0);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [element]);
  return [ref, size];
}
