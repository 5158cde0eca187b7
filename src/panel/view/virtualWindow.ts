// Panel (pure): which rows of a fixed-row-height list are in the DOM, and how far to scroll to reveal one.

export interface VirtualWindow {
  /** First and one-past-last row index to render. */
  first: number;
  last: number;
  /** Translate of the first rendered row, in px from the top of the content. */
  offset: number;
  /** Full content height in px. */
  height: number;
}

export function virtualWindow(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  rowCount: number,
  overscan = 8,
): VirtualWindow {
  const height = rowCount * rowHeight;
  const maxScroll = Math.max(0, height - viewportHeight);
  const top = Math.min(Math.max(0, scrollTop), maxScroll);
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const last = Math.min(rowCount, Math.ceil((top + viewportHeight) / rowHeight) + overscan);
  return { first, last: Math.max(first, last), offset: first * rowHeight, height };
}

/** The scrollTop that brings row `index` fully into view with the least movement (unchanged when it is visible). */
export function scrollToReveal(index: number, scrollTop: number, viewportHeight: number, rowHeight: number): number {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return Math.max(0, bottom - viewportHeight);
  return scrollTop;
}

/** Keyboard movement in a list: arrows, page keys, Home/End. Returns the new index or undefined for other keys. */
export function moveIndex(
  key: string,
  current: number | undefined,
  rowCount: number,
  pageSize: number,
): number | undefined {
  if (rowCount === 0) return undefined;
  const at = current ?? -1;
  const clamp = (i: number) => Math.min(rowCount - 1, Math.max(0, i));
  switch (key) {
    case 'ArrowDown':
      return clamp(at + 1);
    case 'ArrowUp':
      return clamp(current === undefined ? rowCount - 1 : at - 1);
    case 'PageDown':
      return clamp(at + Math.max(1, pageSize));
    case 'PageUp':
      return clamp(at - Math.max(1, pageSize));
    case 'Home':
      return 0;
    case 'End':
      return rowCount - 1;
    default:
      return undefined;
  }
}
