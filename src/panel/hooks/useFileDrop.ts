// Panel: a file dragged over the panel shows the drop overlay; dropped, it is handed on to be imported.
import type { TargetedDragEvent } from 'preact';
import { useState } from 'preact/hooks';

export interface FileDrop {
  dragging: boolean;
  dropHandlers: {
    onDragOver(e: TargetedDragEvent<HTMLDivElement>): void;
    onDragLeave(e: TargetedDragEvent<HTMLDivElement>): void;
    onDrop(e: TargetedDragEvent<HTMLDivElement>): void;
  };
}

export function useFileDrop(onFile: (file: File) => void): FileDrop {
  const [dragging, setDragging] = useState(false);
  const dropHandlers = {
    onDragOver: (e: TargetedDragEvent<HTMLDivElement>) => {
      // Only files: dragged text or links are not captures.
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      setDragging(true);
    },
    onDragLeave: (e: TargetedDragEvent<HTMLDivElement>) => {
      // Leaving a child fires too; only leaving the panel itself ends the drag.
      if (e.currentTarget === e.target) setDragging(false);
    },
    onDrop: (e: TargetedDragEvent<HTMLDivElement>) => {
      e.preventDefault();
      setDragging(false);
      const file = e.dataTransfer?.files[0];
      if (file) onFile(file);
    },
  };
  return { dragging, dropHandlers };
}
