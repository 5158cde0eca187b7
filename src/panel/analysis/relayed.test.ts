// The panel on the MCP Inspector's relayed session (the real recording): the session row and the connection detail
// say "relayed: bytes not visible", and the labels survive the worker's wire.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../core/analyze';
import { parseCapture } from '../../core/capture/format';
import { FIXTURES_DIR } from '../../core/fixtures-dir.fixture';
import { buildPanelView } from '../view/model';
import { RELAYED_LABEL } from '../view/relayed';
import { detail } from './decode-detail';
import { detailData } from './detail-data';
import { sessionRowData } from './summary';

const capture = parseCapture(readFileSync(join(FIXTURES_DIR, 'mcp-inspector.capture.json'), 'utf8'));
const view = buildPanelView(analyze(capture));

describe('a relayed session in the panel', () => {
  it('labels the session row with who relayed it and what cannot be seen, and sums up no reconnect behaviour', () => {
    const [row] = view.sessionRows.map(sessionRowData);
    expect(row?.relayed).toContain("MCP Inspector's backend");
    expect(row?.relayed).toContain('byte offsets, torn events');
    expect(row?.reconnect).toBeUndefined();
    expect(RELAYED_LABEL).toBe('relayed: bytes not visible');
  });

  it('labels each relayed exchange in its detail, through the decoder the UI thread uses', () => {
    const call = view.analysis.connections.at(-1);
    const data = detailData(view, undefined, { connectionId: call?.id }, 4096);
    expect(data.connection?.relayed).toContain(capture.connections[1]?.id);
    expect(detail(structuredClone(data)).connection?.relayed).toBe(data.connection?.relayed);
    expect(data.connection?.method).toBe('POST');
  });
});
