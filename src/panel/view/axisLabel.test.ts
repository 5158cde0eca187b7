import { describe, expect, it } from 'vitest';
import { axisLabelPlacement } from './axisLabel';

describe('axis labels', () => {
  it('sit right of their tick', () => {
    expect(axisLabelPlacement(100, '200 ms', 500)).toEqual({ x: 103, anchor: 'start' });
  });

  it('flip left of the tick at the right edge instead of being cut off', () => {
    expect(axisLabelPlacement(480, '600 ms', 500)).toEqual({ x: 477, anchor: 'end' });
  });
});
