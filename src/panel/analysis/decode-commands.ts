// Runs anywhere (pure): the decoder of what the UI thread asks the analysis worker (messages.ts, UiToWorker).
// The UI thread is the panel's own code, but the worker keeps the records: each command is rebuilt from checked
// fields, and a transport message is checked as the panel's transport checks it (protocol/decode-panel.ts).
import { asBackgroundToPanel, asPanelFeed } from '../../protocol/decode-panel';
import { decoding, fail, flag, integer, optionalText, record, text } from '../../protocol/decode-fields';
import { PANEL_BUDGET_LIMITS } from '../state/budget';

/** A day: no silence threshold is longer (the settings' range). */
const SILENCE_MS_MAX = 86_400_000;
import { count, eventRef, maybe, num, optional, seq, severityRecord, str } from './decode-shared';
import type { Choices, Selection, UiToWorker } from './messages';

function selection(v: unknown): Selection {
  const o = record(v, 'selection');
  switch (o.kind) {
    case 'event':
      return { kind: 'event', ...eventRef(o) };
    case 'connection':
      return { kind: 'connection', connectionId: str(o.connectionId, 'connectionId') };
    case 'finding':
      return { kind: 'finding', key: str(o.key, 'key') };
    default:
      return fail('selection');
  }
}

function choices(v: unknown): Choices {
  const o = record(v, 'choices');
  return {
    filterText: text(o.filterText, 4096, 'filterText'),
    severities: severityRecord(o.severities, (s) => flag(s, 'severity')),
    ...maybe('sessionKey', optionalText(o.sessionKey, 4096, 'sessionKey')),
    ...maybe('selection', optional(o.selection, selection)),
    truncateBytes: count(o.truncateBytes, 'truncateBytes'),
  };
}

/** What the UI thread asks of the worker, or null. */
export function asUiToWorker(raw: unknown): UiToWorker | null {
  return decoding((): UiToWorker | null => {
    const m = record(raw, 'message');
    switch (m.type) {
      case 'transport': {
        // The background's message (its parcels are read next, in intake.ts), or a feed already holding deltas.
        const message =
          record(m.message, 'transport message').parcels !== undefined
            ? asBackgroundToPanel(m.message, undefined)
            : asPanelFeed(m.message);
        return message ? { type: 'transport', seq: seq(m.seq), message } : null;
      }
      case 'recording':
        return { type: 'recording', seq: seq(m.seq), on: flag(m.on, 'on') };
      case 'budget': {
        const b = record(m.budget, 'budget');
        const { bytes, connections } = PANEL_BUDGET_LIMITS;
        return {
          type: 'budget',
          seq: seq(m.seq),
          budget: {
            bytes: integer(b.bytes, bytes.min, bytes.max, 'bytes'),
            connections: integer(b.connections, connections.min, connections.max, 'connections'),
          },
        };
      }
      case 'silence': {
        const t = record(m.silence, 'silence');
        const ms = (value: unknown, name: string) => integer(value, 1, SILENCE_MS_MAX, name);
        return {
          type: 'silence',
          seq: seq(m.seq),
          silence: {
            hangMs: ms(t.hangMs, 'hangMs'),
            idleCutMs: ms(t.idleCutMs, 'idleCutMs'),
            bufferedWaitMs: ms(t.bufferedWaitMs, 'bufferedWaitMs'),
          },
        };
      }
      case 'clear':
        return { type: 'clear', seq: seq(m.seq) };
      case 'import':
        if (!(m.file instanceof Blob)) fail('file');
        return { type: 'import', seq: seq(m.seq), name: text(m.name, 4096, 'name'), file: m.file };
      case 'import-cancel':
        return { type: 'import-cancel', importSeq: seq(m.importSeq) };
      case 'choices':
        return { type: 'choices', seq: seq(m.seq), choices: choices(m.choices) };
      case 'rows':
        return {
          type: 'rows',
          version: count(m.version, 'version'),
          from: count(m.from, 'from'),
          to: count(m.to, 'to'),
        };
      case 'payload':
        return { type: 'payload', id: count(m.id, 'id'), event: eventRef(m.event) };
      case 'export':
        if (m.kind !== 'capture' && m.kind !== 'har') fail('kind');
        return {
          type: 'export',
          id: count(m.id, 'id'),
          kind: m.kind,
          toolVersion: text(m.toolVersion, 256, 'toolVersion'),
          createdAt: num(m.createdAt, 'createdAt'),
          revealSecrets: m.revealSecrets === true,
        };
      default:
        return null;
    }
  });
}
