// Panel (pure): where an axis tick's label goes: right of its tick, or left of it when it would run past the plot.

/** Advance of one character of the 10px axis label (tabular figures). */
export const AXIS_CHAR_WIDTH = 5.8;

export function axisLabelPlacement(tickX: number, text: string, width: number): { x: number; anchor: 'start' | 'end' } {
  const fitsRight = tickX + 3 + text.length * AXIS_CHAR_WIDTH <= width;
  return fitsRight ? { x: tickX + 3, anchor: 'start' } : { x: tickX - 3, anchor: 'end' };
}
