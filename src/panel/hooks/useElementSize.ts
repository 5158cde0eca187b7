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
    const observer = new ResizeObserver((entries) => {
      const rect = entries[0]?.contentRect;
      if (!rect) return;
      const next = { width: Math.floor(rect.width), height: Math.floor(rect.height) };
      setSize((s) => (s.width === next.width && s.height === next.height ? s : next));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return [ref, size];
}
