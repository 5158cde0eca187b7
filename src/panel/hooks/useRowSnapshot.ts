// Panel: the events table's own subscription to the rows the worker sent, so rows arriving while it scrolls
// re-render the table alone, not the panel around it.
import { useEffect, useState } from 'preact/hooks';
import type { RowSnapshot, RowSource } from '../view/rowCache';

export function useRowSnapshot(source: RowSource): RowSnapshot {
  const [snapshot, setSnapshot] = useState(() => source.snapshot());
  useEffect(() => {
    setSnapshot(source.snapshot());
    return source.subscribe(() => setSnapshot(source.snapshot()));
  }, [source]);
  return snapshot;
}
