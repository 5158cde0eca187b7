// Runs in Node (CLI), pure (no I/O): `--format sarif`, a SARIF 2.1.0 log for code scanning (docs/ci-formats.md).
import { createHash } from 'node:crypto';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Location, Log, ReportingDescriptor, Result } from 'sarif';
import type { Finding, RuleMeta, Severity } from '../core/guard/types';
import { RELAYED_LABEL } from '../core/model/relayed-label';
import type { Place } from './locate';
import { describePlace } from './locate';

/** What a report says of one input file: its findings with their places, or why it could not be read. */
export type FileFindings =
  | {
      file: string;
      ok: true;
      findings: readonly Finding[];
      places: readonly Place[];
      /** The keys of the file's relayed sessions (docs/relayed-traffic.md): their findings say so. */
      relayed?: ReadonlySet<string>;
    }
  | { file: string; ok: false; message: string };

export interface SarifOptions {
  rules: readonly RuleMeta[];
  version: string;
  /** Absolute URI of a rule's doc page. */
  helpUri(ruleId: string): string;
  /** A rule's doc page (Markdown), when it could be read. */
  helpMarkdown(ruleId: string): string | undefined;
}

const SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
/** The key of our fingerprint in `partialFingerprints`; the version part changes only if its recipe does. */
export const FINGERPRINT_KEY = 'mcpStreamInspectorFinding/v1';

export function sarifLevel(severity: Severity): 'error' | 'warning' | 'note' {
  return severity === 'info' ? 'note' : severity;
}

export function toSarif(files: readonly FileFindings[], options: SarifOptions): Log {
  const ruleIndex = new Map(options.rules.map((r, i) => [r.id, i]));
  const artifactIndex = new Map(files.map((f, i) => [f.file, i]));
  const results: Result[] = [];
  for (const f of files) {
    if (!f.ok) continue;
    const seen = new Map<string, number>();
    f.findings.forEach((finding, i) => {
      const place = f.places[i] ?? { kind: 'file' };
      const index = ruleIndex.get(finding.rule);
      const where = describePlace(place);
      const fingerprint = fingerprintOf(finding, seen);
      const relayed = finding.sessionKey !== undefined && f.relayed?.has(finding.sessionKey) === true;
      results.push({
        ruleId: finding.rule,
        ...(index !== undefined && { ruleIndex: index }),
        level: sarifLevel(finding.severity),
        message: { text: relayedNote(where === '' ? finding.message : `${finding.message} (${where})`, relayed) },
        locations: [location(f.file, artifactIndex.get(f.file) ?? -1, place)],
        partialFingerprints: { [FINGERPRINT_KEY]: fingerprint },
        properties: { ...findingProperties(finding), ...(relayed && { relayed: RELAYED_LABEL }) },
      });
    });
  }
  const failed = files.filter((f) => !f.ok);
  return {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'mcp-stream-inspector',
            version: options.version,
            rules: options.rules.map((r) => descriptor(r, options)),
          },
        },
        invocations: [
          {
            executionSuccessful: failed.length === 0,
            toolExecutionNotifications: failed.map((f) => ({
              level: 'error',
              message: { text: f.ok ? '' : f.message },
              locations: [location(f.file, artifactIndex.get(f.file) ?? -1, { kind: 'file' })],
            })),
          },
        ],
        artifacts: files.map((f) => ({ location: artifactLocation(f.file), roles: ['analysisTarget'] })),
        results,
      },
    ],
  };
}

/** A finding's text with the session's relay said, as the panel's badge says it. */
export function relayedNote(text: string, relayed: boolean): string {
  return relayed ? `${text} [session ${RELAYED_LABEL}]` : text;
}

function descriptor(rule: RuleMeta, options: SarifOptions): ReportingDescriptor {
  const markdown = options.helpMarkdown(rule.id);
  return {
    id: rule.id,
    shortDescription: { text: rule.title },
    fullDescription: { text: rule.summary },
    helpUri: options.helpUri(rule.id),
    ...(markdown !== undefined && { help: { text: markdown, markdown } }),
    defaultConfiguration: { level: sarifLevel(rule.severity) },
    properties: { tags: ['mcp', 'streamable-http'], ...(rule.eras && { eras: [...rule.eras] }) },
  };
}

/**
 * A relative path stays relative (to the repository root, `%SRCROOT%`), each segment percent-encoded
 * (`#`, `?` and `%` included); an absolute one becomes a file URL. "/" and "\\" separate alike.
 */
function artifactLocation(file: string): { uri: string; uriBaseId?: string } {
  const path = file.replace(/\\/g, '/');
  if (isAbsolute(file)) return { uri: pathToFileURL(file).href };
  const segments = path.replace(/^(\.\/)+/, '').split('/');
  return { uri: segments.map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
}

function location(file: string, index: number, place: Place): Location {
  const artifact = { ...artifactLocation(file), ...(index >= 0 && { index }) };
  switch (place.kind) {
    case 'file':
      return { physicalLocation: { artifactLocation: artifact } };
    case 'byte':
      return {
        physicalLocation: {
          artifactLocation: artifact,
          region: { startLine: place.line, byteOffset: place.byteOffset },
        },
      };
    case 'entry':
      return {
        physicalLocation: {
          artifactLocation: artifact,
          ...(place.line !== undefined && { region: { startLine: place.line } }),
        },
        logicalLocations: [
          { fullyQualifiedName: `${place.list}[${place.index}]`, name: place.connectionId, kind: 'object' },
        ],
      };
  }
}

/**
 * Stable across runs on the same input: a hash of what the finding is about (rule, session, stream,
 * connection, event, byte, message), never of times of the run or of the order of the output; a repeat of
 * the same finding in one file gets its ordinal appended.
 */
function fingerprintOf(f: Finding, seen: Map<string, number>): string {
  const parts = [f.rule, f.sessionKey, f.streamId, f.connectionId, f.eventId, f.byteOffset, f.message];
  const hash = createHash('sha256')
    .update(parts.map((p) => (p === undefined ? '' : String(p))).join('\u0000'))
    .digest('hex')
    .slice(0, 32);
  const n = seen.get(hash) ?? 0;
  seen.set(hash, n + 1);
  return n === 0 ? hash : `${hash}:${n}`;
}

function findingProperties(f: Finding): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (f.sessionKey !== undefined) out.sessionKey = f.sessionKey;
  if (f.streamId !== undefined) out.streamId = f.streamId;
  if (f.connectionId !== undefined) out.connectionId = f.connectionId;
  if (f.eventId !== undefined) out.eventId = f.eventId;
  if (f.byteOffset !== undefined) out.connectionByteOffset = f.byteOffset;
  return out;
}
