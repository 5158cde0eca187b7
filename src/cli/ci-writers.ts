// Runs in Node (CLI): the report writers of the CI formats (sarif, junit, github) over `CliIo`'s stdout.
import { rules } from '../core/guard';
import { relayedSessions } from '../core/model/relayed-label';
import type { FailOn } from './args';
import { findingAnnotations, inputErrorAnnotation } from './github-report';
import { toJunit, type JunitFile } from './junit-report';
import type { ReportWriter } from './report-writer';
import { toSarif, type FileFindings, type SarifOptions } from './sarif-report';

/** SARIF is one document over all files: written once all are analyzed. */
export function sarifWriter(write: (text: string) => void, options: Omit<SarifOptions, 'rules'>): ReportWriter {
  const files: FileFindings[] = [];
  return {
    write(o) {
      files.push(
        o.ok
          ? {
              file: o.file,
              ok: true,
              findings: o.analysis.findings,
              places: o.places,
              relayed: new Set(relayedSessions(o.analysis.sessions).keys()),
            }
          : { file: o.file, ok: false, message: o.error.message },
      );
    },
    finish() {
      write(`${JSON.stringify(toSarif(files, { ...options, rules }), null, 2)}\n`);
    },
  };
}

/** JUnit XML is one document too; a file's suite keeps only session keys and findings, not the analysis. */
export function junitWriter(write: (text: string) => void, failOn: FailOn): ReportWriter {
  const files: JunitFile[] = [];
  return {
    write(o) {
      files.push(
        o.ok
          ? {
              file: o.file,
              ok: true,
              sessions: o.analysis.sessions.map((s) => s.key),
              findings: o.analysis.findings,
              places: o.places,
              relayed: new Set(relayedSessions(o.analysis.sessions).keys()),
            }
          : { file: o.file, ok: false, message: o.error.message },
      );
    },
    finish() {
      write(toJunit(files, failOn));
    },
  };
}

/** Annotations are lines: each file's are written as soon as it is analyzed. */
export function githubWriter(write: (text: string) => void): ReportWriter {
  return {
    write(o) {
      write(
        o.ok
          ? findingAnnotations(
              o.file,
              o.analysis.findings,
              o.places,
              new Set(relayedSessions(o.analysis.sessions).keys()),
            )
          : inputErrorAnnotation(o.file, o.error.message),
      );
    },
    finish() {},
  };
}
