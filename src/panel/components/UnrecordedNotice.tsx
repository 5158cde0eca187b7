// Panel: the notice that DevTools' network log saw MCP-looking requests the tap did not record (a worker's: the tap
// runs in the page's frames only). Shown inside DevTools only, where the network log exists.
import { useEffect, useState } from 'preact/hooks';
import type { UnrecordedFeed } from '../network-log';

export function UnrecordedNotice({ feed }: { feed: UnrecordedFeed | undefined }) {
  const [count, setCount] = useState(0);
  useEffect(() => feed?.subscribe(setCount), [feed]);
  if (count === 0) return null;
  return (
    <div class="notice warning" role="status" data-testid="notice-unrecorded" data-count={count}>
      <span class="selectable">
        {count === 1 ? '1 MCP request' : `${count} MCP requests`} in DevTools' network log{' '}
        {count === 1 ? 'was' : 'were'} not recorded here: made by a worker, which the page tap cannot see. Find{' '}
        {count === 1 ? 'it' : 'them'} in the Network panel.
      </span>
    </div>
  );
}
