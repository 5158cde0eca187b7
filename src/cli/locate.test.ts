import { describe, expect, it } from 'vitest';
import { elementLines, lineAt } from './locate';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('elementLines', () => {
  it('finds where each HAR entry opens, past strings holding braces, quotes and the key names', () => {
    const har = [
      '{"log": {"creator": {"name": "x {[\\"entries\\": ["},',
      '  "pages": [{"title": "entries"}],',
      '  "entries": [',
      '    {"request": {"url": "http://a/{"}, "n": [{}]},',
      '',
      '    {"request": {"url": "\\\\"}}, {"x": 1}',
      '  ]',
      '}, "entries": [{}]}',
    ].join('\n');
    expect(elementLines(bytes(har))).toEqual([4, 6, 6]);
  });

  it('finds the connections of a capture file, and nothing in other JSON', () => {
    const capture =
      '{\n  "format": "mcp-stream-inspector/capture",\n  "connections": [\n    {"id": "c1"},\n    {"id": "c2"}\n  ]\n}';
    expect(elementLines(bytes(capture))).toEqual([4, 5]);
    expect(elementLines(bytes('{"log": {"other": [{}]}, "x": {"entries": [{}]}}'))).toEqual([]);
  });
});

describe('lineAt', () => {
  it('counts the line feeds before the offset', () => {
    const text = bytes('a\r\nb\nc');
    expect([0, 2, 3, 5, 6].map((o) => lineAt(text, o))).toEqual([1, 1, 2, 3, 3]);
  });
});
