import { describe, expect, it } from 'vitest';
import { describeMessages, formatBytes, formatDuration, formatRelMs, shortId } from './format';

describe('formatting', () => {
  it('writes relative milliseconds with one decimal and grouped thousands', () => {
    expect(formatRelMs(0)).toBe('0.0');
    expect(formatRelMs(33.146)).toBe('33.1');
    expect(formatRelMs(1234567.89)).toBe('1,234,567.9');
  });

  it('writes durations for the axis', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(2.5)).toBe('2.5 ms');
    expect(formatDuration(250)).toBe('250 ms');
    expect(formatDuration(1500)).toBe('1.5 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
  });

  it('writes sizes as the Network panel does', () => {
    expect(formatBytes(348)).toBe('348 B');
    expect(formatBytes(1234)).toBe('1.2 kB');
    expect(formatBytes(4_200_000)).toBe('4.2 MB');
  });

  it('shortens long ids', () => {
    expect(shortId('03c88ff5-0b23-4104-89ee-93da8277702f')).toBe('03c88ff5…');
    expect(shortId('abc')).toBe('abc');
  });

  it('names JSON-RPC messages by method and id', () => {
    expect(
      describeMessages([
        { kind: 'request', id: 3, method: 'tools/call', value: {} },
        { kind: 'notification', method: 'notifications/progress', value: {} },
        { kind: 'response', id: 3, value: {} },
        { kind: 'error', id: 'x', value: {} },
      ]),
    ).toBe('tools/call #3, notifications/progress, result #3, error #x');
  });
});
