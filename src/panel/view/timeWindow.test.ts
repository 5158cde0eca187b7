import { describe, expect, it } from 'vitest';
import {
  clampWindow,
  ensureVisible,
  fitWindow,
  nearestTick,
  niceTicks,
  panBy,
  pixelTicks,
  tOf,
  xOf,
  zoomAround,
} from './timeWindow';

const bounds = { from: 0, to: 1000 };

describe('time window', () => {
  it('maps times to pixels and back', () => {
    const w = { from: 100, to: 300 };
    expect(xOf(w, 800, 200)).toBe(400);
    expect(tOf(w, 800, 400)).toBe(200);
  });

  it('fits the extent with a little air', () => {
    expect(fitWindow(0, 1000)).toEqual({ from: -30, to: 1030 });
  });

  it('zooms around the pointer, keeping the time under it in place', () => {
    const w = zoomAround({ from: 0, to: 1000 }, 0.5, 250, bounds);
    expect(w.to - w.from).toBe(500);
    expect(xOf(w, 1000, 250)).toBeCloseTo(xOf({ from: 0, to: 1000 }, 1000, 250));
  });

  it('does not zoom out past the bounds nor in past 0.1 ms', () => {
    expect(zoomAround({ from: 0, to: 1000 }, 4, 500, bounds)).toEqual({ from: 0, to: 1000 });
    const tiny = zoomAround({ from: 500, to: 500.2 }, 0.01, 500.1, bounds);
    expect(tiny.to - tiny.from).toBeCloseTo(0.1);
  });

  it('pans inside the bounds', () => {
    expect(panBy({ from: 100, to: 200 }, 50, bounds)).toEqual({ from: 150, to: 250 });
    expect(panBy({ from: 100, to: 200 }, -500, bounds)).toEqual({ from: 0, to: 100 });
    expect(panBy({ from: 800, to: 900 }, 500, bounds)).toEqual({ from: 900, to: 1000 });
  });

  it('centres a window wider than the bounds', () => {
    expect(clampWindow({ from: 0, to: 2000 }, { from: 0, to: 1000 })).toEqual({ from: -500, to: 1500 });
  });

  it('slides to reveal a selected time, keeping the zoom', () => {
    expect(ensureVisible({ from: 0, to: 100 }, 50, bounds)).toEqual({ from: 0, to: 100 });
    expect(ensureVisible({ from: 0, to: 100 }, 600, bounds)).toEqual({ from: 550, to: 650 });
    expect(ensureVisible({ from: 0, to: 100 }, 990, bounds)).toEqual({ from: 900, to: 1000 });
  });

  it('picks round axis steps relative to the session start', () => {
    expect(niceTicks({ from: 0, to: 1000 }, 0, 5)).toEqual({ step: 200, ticks: [0, 200, 400, 600, 800, 1000] });
    const { step, ticks } = niceTicks({ from: 1003, to: 1013 }, 1000, 4);
    expect(step).toBe(5);
    expect(ticks).toEqual([1005, 1010]);
  });

  it('stays bounded where a step is below the resolution of the times (near a Date limit, zoomed in)', () => {
    // At 8e15 ms a float steps by 1: a 0.1 ms step once left the loop adding ticks until memory ran out.
    const { ticks } = niceTicks({ from: 8e15, to: 8e15 + 1 }, 8e15, 10);
    expect(ticks.length).toBeLessThanOrEqual(12);
    expect(new Set(ticks).size).toBe(ticks.length);
    expect(ticks[0]).toBe(8e15);
  });

  it('draws at most one event tick per pixel column', () => {
    const times = Array.from({ length: 100_000 }, (_, i) => i / 100); // 0..1000 ms
    const ticks = pixelTicks(times, { from: 0, to: 1000 }, 800);
    expect(ticks.length).toBeLessThanOrEqual(801);
    expect(ticks.length).toBeGreaterThan(790);
    expect(new Set(ticks.map(([x]) => x)).size).toBe(ticks.length);
  });

  it('leaves out ticks outside the window', () => {
    const ticks = pixelTicks([10, 20, 30, 40], { from: 15, to: 35 }, 100);
    expect(ticks.map(([, i]) => i)).toEqual([1, 2]);
  });

  it('finds the tick under the pointer within a few pixels', () => {
    const times = [10, 20, 30];
    const w = { from: 0, to: 100 };
    expect(nearestTick(times, w, 100, 21, 3)).toBe(1);
    expect(nearestTick(times, w, 100, 25, 3)).toBeUndefined();
  });

  it('picks the first of events that share a time', () => {
    expect(nearestTick([10, 20, 20, 20, 30], { from: 0, to: 100 }, 100, 21, 3)).toBe(1);
  });
});
