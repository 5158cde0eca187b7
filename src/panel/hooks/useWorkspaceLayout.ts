// Panel: pane geometry: the space DevTools gives the panel, the sizes the user dragged, and the grid they make.
import { useState } from 'preact/hooks';
import {
  workspaceLayout,
  workspaceMode,
  type PaneContent,
  type PaneSizes,
  type WorkspaceLayout,
} from '../view/workspace';
import { useElementSize } from './useElementSize';

/** Before the first measurement: a typical undocked DevTools window. */
const FALLBACK_WIDTH = 1280;
const FALLBACK_HEIGHT = 600;

/** Makes a splitter's drag handler: `sign` says which way a positive delta grows the pane. */
export type PaneResizer = (key: keyof PaneSizes, sign: 1 | -1, lo: number, hi: number) => (delta: number) => void;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

export function useWorkspaceLayout(content: PaneContent) {
  const [sizes, setSizes] = useState<PaneSizes>({ sessions: 210, detail: 400 });
  const [panelRef, panelBox] = useElementSize<HTMLDivElement>();
  const [workspaceRef, box] = useElementSize<HTMLDivElement>();
  const width = box.width || panelBox.width || FALLBACK_WIDTH;
  const panes: WorkspaceLayout = workspaceLayout(width, box.height || FALLBACK_HEIGHT, sizes, content);
  const narrow = workspaceMode(panelBox.width || FALLBACK_WIDTH) === 'narrow';
  // A drag starts from the size shown, which may have followed the content until now.
  const shown: Record<keyof PaneSizes, number> = {
    sessions: panes.sessions,
    detail: panes.detail,
    detailHeight: panes.detail,
    timeline: panes.timeline,
    findings: panes.findings,
  };
  const resize: PaneResizer = (key, sign, lo, hi) => (delta) =>
    setSizes((s) => ({ ...s, [key]: clamp((s[key] ?? shown[key]) + sign * delta, lo, hi) }));
  return { panelRef, workspaceRef, panes, narrow, resize };
}
