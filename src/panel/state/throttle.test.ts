import { describe, expect, it } from 'vitest';
import { analysisDelay } from './throttle';

describe('analysis throttle', () => {
  it('runs at once after a quiet period', () => {
    expect(analysisDelay(Infinity, 0)).toBe(0);
    expect(analysisDelay(500, 10)).toBe(0);
  });

  it('waits out the rest of 100 ms while streaming', () => {
    expect(analysisDelay(30, 5)).toBe(70);
  });

  it('backs off when analysis is slow', () => {
    expect(analysisDelay(0, 400)).toBe(800);
    expect(analysisDelay(300, 400)).toBe(500);
  });
});
