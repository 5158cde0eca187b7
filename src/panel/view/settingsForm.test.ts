import { describe, expect, it } from 'vitest';
import { bufferBytesFromField, bufferFieldValue, panelBytesFromField, panelConnectionsFromField } from './settingsForm';

const MIB = 1024 * 1024;

describe('buffer field', () => {
  it('shows the stored byte budget in MiB', () => {
    expect(bufferFieldValue(4 * MIB)).toBe('4');
    expect(bufferFieldValue(64 * MIB)).toBe('64');
    // A budget set outside the panel (64 KiB in a test) is shown as it is, not rounded to a whole MiB.
    expect(bufferFieldValue(64 * 1024)).toBe('0.06');
    expect(bufferFieldValue(1.5 * MIB)).toBe('1.5');
  });

  it('stores whole MiB as bytes, clamped to 1–64', () => {
    expect(bufferBytesFromField('8')).toBe(8 * MIB);
    expect(bufferBytesFromField(' 16 ')).toBe(16 * MIB);
    expect(bufferBytesFromField('2.6')).toBe(3 * MIB);
    expect(bufferBytesFromField('0')).toBe(1 * MIB);
    expect(bufferBytesFromField('-5')).toBe(1 * MIB);
    expect(bufferBytesFromField('500')).toBe(64 * MIB);
  });

  it('stores nothing for an empty or non-numeric field', () => {
    expect(bufferBytesFromField('')).toBeUndefined();
    expect(bufferBytesFromField('   ')).toBeUndefined();
    expect(bufferBytesFromField('four')).toBeUndefined();
    expect(bufferBytesFromField('Infinity')).toBeUndefined();
  });

  it('round-trips what it stores', () => {
    for (const mib of [1, 4, 33, 64])
      expect(bufferFieldValue(bufferBytesFromField(bufferFieldValue(mib * MIB))!)).toBe(String(mib));
  });
});

describe('panel budget fields', () => {
  it('stores the byte budget as whole MiB within 1–4096, and connections within 10–1,000,000', () => {
    expect(panelBytesFromField('256')).toBe(256 * MIB);
    expect(panelBytesFromField('0')).toBe(1 * MIB);
    expect(panelBytesFromField('99999')).toBe(4096 * MIB);
    expect(panelBytesFromField('x')).toBeUndefined();
    expect(panelConnectionsFromField('5000')).toBe(5000);
    expect(panelConnectionsFromField('3')).toBe(10);
    expect(panelConnectionsFromField('2e6')).toBe(1_000_000);
    expect(panelConnectionsFromField('')).toBeUndefined();
  });
});
