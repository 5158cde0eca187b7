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
