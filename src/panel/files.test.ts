import { describe, expect, it } from 'vitest';
import { exportFileName } from './files';

describe('export file names', () => {
  it('stamps the local date and time and picks the extension', () => {
    const d = new Date(2026, 10, 29, 15, 4, 8);
    expect(exportFileName('capture', d)).toBe('mcp-capture-2026-11-29T15-04-08.json');
    expect(exportFileName('har', d)).toBe('mcp-capture-2026-11-29T15-04-08.har');
  });
});
