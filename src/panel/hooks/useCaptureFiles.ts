// Panel: import of a capture, HAR or saved event stream, and export of what the panel holds as a capture or HAR.
import { serializeCapture } from '../../core/capture/format';
import { exportHar } from '../../core/capture/har-export';
import { loadInput } from '../../core/capture/load';
import { downloadText, exportFileName, readFileBytes, type ExportKind } from '../files';
import { recordsToCapture } from '../state/capture';
import type { Action, PanelState } from '../state/store';
import type { PanelView } from '../view/model';

export interface CaptureFiles {
  importFile(file: File): Promise<void>;
  exportAs(kind: ExportKind): void;
}

export function useCaptureFiles(
  { records, pageUrl }: Pick<PanelState, 'records' | 'pageUrl'>,
  view: PanelView | undefined,
  toolVersion: string,
  dispatch: (action: Action) => void,
): CaptureFiles {
  const importFile = async (file: File) => {
    try {
      const capture = loadInput(await readFileBytes(file), file.name);
      dispatch({ type: 'imported', name: file.name, capture });
    } catch (e) {
      // A file that cannot be read is the user's to know about: it becomes the panel's notice.
      dispatch({ type: 'import-failed', name: file.name, message: e instanceof Error ? e.message : String(e) });
    }
  };
  const exportAs = (kind: ExportKind) => {
    const capture = recordsToCapture(records, { toolVersion, createdAt: Date.now(), ...(pageUrl ? { pageUrl } : {}) });
    const name = exportFileName(kind, new Date());
    // A capture carries the findings the panel showed; HAR has no place for them.
    const findings = view?.analysis.findings ?? [];
    const text = kind === 'capture' ? serializeCapture(capture, { findings }) : exportHar(capture);
    downloadText(text, name, 'application/json');
  };
  return { importFile, exportAs };
}
