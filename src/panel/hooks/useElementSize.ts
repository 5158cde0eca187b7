// Panel: tracks an element's content height (the virtualized table renders what fits).
import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

export function useElementHeight<T extends HTMLElement>(): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver((entries) => setHeight(Math.floor(entries[0]?.contentRect.height ?? 0)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, height];
}

/** Both content dimensions, for layouts that depend on the space DevTools gives the panel. */
export function useElementBox<T extends HTMLElement>(): [RefObject<T | null>, { width: number; height: number }] {
  const ref = useRef<T>(null);
  const [box, setBox] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver((entries) => {
      const rect = entries[0]?.contentRect;
      if (!rect) return;
      const next = { width: Math.floor(rect.width), height: Math.floor(rect.height) };
      setBox((b) => (b.width === next.width && b.height === next.height ? b : next));
    });
    observer.observe(element);
    return () => observer.disconnect();
  });
  return [ref, box];
}
