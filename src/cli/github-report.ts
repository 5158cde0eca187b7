// Runs in Node (CLI), pure (no I/O): `--format github`, GitHub Actions workflow commands that annotate the
// run (`::error file=…,title=…::message`), escaped as the runner's own toolkit does (docs/ci-formats.md).
import type { Finding, Severity } from '../core/guard/types';
import type { Place } from './locate';
import { describePlace } from './locate';
import { relayedNote } from './sarif-report';

const COMMAND: Record<Severity, 'error' | 'warning' | 'notice'> = {
  error: 'error',
  warning: 'warning',
  info: 'notice',
};

/**
 * One annotation per finding, every severity (`info` as a notice); `--fail-on` decides the exit code only. A finding
 * of a relayed session (its key in `relayed`) says so.
 */
export function findingAnnotations(
  file: string,
  findings: readonly Finding[],
  places: readonly Place[],
  relayed: ReadonlySet<string> = new Set(),
): string {
  return findings
    .map((finding, i) => {
      const place = places[i] ?? { kind: 'file' };
      const where = describePlace(place);
      const properties: [string, string][] = [['file', file]];
      if (place.kind !== 'file' && place.line !== undefined) properties.push(['line', String(place.line)]);
      properties.push(['title', finding.rule]);
      const isRelayed = finding.sessionKey !== undefined && relayed.has(finding.sessionKey);
      const message = relayedNote(where === '' ? finding.message : `${finding.message} (${where})`, isRelayed);
      return workflowCommand(COMMAND[finding.severity], properties, message);
    })
    .join('');
}

/** An input that could not be read: an error annotation on the file. */
export function inputErrorAnnotation(file: string, message: string): string {
  return workflowCommand(
    'error',
    [
      ['file', file],
      ['title', 'mcp-stream-inspector'],
    ],
    message,
  );
}

/** `::name key=value,key=value::message` and a newline. */
export function workflowCommand(name: string, properties: readonly [string, string][], message: string): string {
  const props = properties.map(([k, v]) => `${k}=${escapeProperty(v)}`).join(',');
  return `::${name}${props === '' ? '' : ` ${props}`}::${escapeData(message)}\n`;
}

/** The message: `%`, CR and LF encoded (so one annotation is one line). */
export function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property value: as the message, and `:` and `,` too (they separate the command's parts). */
export function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
