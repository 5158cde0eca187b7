// Panel: import of a capture, HAR or saved event stream, and export of what the panel holds as a capture or HAR.
// Both run in the analysis worker: the file goes there unread, and the export comes back as a Blob to download.
import { useEffect, useRef } from 'preact/hooks';
import type { ExportKind, WorkerToUi } from '../analysis/messages';
import { downloadBlob, exportFileName } from '../files';
import type { Action } from '../state/store';
import type { AnalysisView } from './useAnalysis';

export interface CaptureFiles {
  importFile(file: File): void;
  /** Stops the import under way (the worker stops between two slices; what was shown stays). */
  cancelImport(seq: number): void;
  exportAs(kind: ExportKind): void;
}

export function useCaptureFiles(
  analysis: Pick<AnalysisView, 'client' | 'onMessage'>,
  toolVersion: string,
  dispatch: (action: Action) => void,
  revealSecrets: boolean,
): CaptureFiles {
  const { client, onMessage } = analysis;
  const exports = useRef(new Map<number, { kind: ExportKind; at: Date }>());
  useEffect(
    () =>
      onMessage((message: WorkerToUi) => {
        if (message.type === 'import-progress') {
          const { seq, name, bytes, total } = message;
          dispatch({ type: 'import-progress', progress: { seq, name, bytes, total } });
        } else if (message.type === 'import-cancelled') dispatch({ type: 'import-cancelled', name: message.name });
        else if (message.type === 'imported')
          dispatch({ type: 'imported', name: message.name, connections: message.connections });
        else if (message.type === 'import-failed')
          dispatch({ type: 'import-failed', name: message.name, message: message.message });
        else if (message.type === 'exported') {
          const asked = exports.current.get(message.id);
          exports.current.delete(message.id);
          if (asked) downloadBlob(message.blob, exportFileName(asked.kind, asked.at));
        }
      }),
    [onMessage, dispatch],
  );
  return {
    importFile(file) {
      const seq = client.importFile(file.name, file);
      dispatch({ type: 'import-progress', progress: { seq, name: file.name, bytes: 0, total: file.size } });
    },
    cancelImport(seq) {
      client.cancelImport(seq);
    },
    exportAs(kind) {
      const at = new Date();
      exports.current.set(client.exportAs(kind, toolVersion, at.getTime(), revealSecrets), { kind, at });
    },
  };
}
