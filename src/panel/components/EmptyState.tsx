// Panel: what an empty panel says, and what to do about it; when the page streamed only what is not MCP, it says so
// and lists those streams.
import type { OtherStreamRowData } from '../analysis/messages';
import { noMcpLine } from '../view/otherStreams';
import { OtherStreams } from './OtherStreams';

export interface EmptyStateProps {
  live: boolean;
  otherStreams?: readonly OtherStreamRowData[];
  otherStreamsLeftOff?: number;
}

export function EmptyState({ live, otherStreams = [], otherStreamsLeftOff = 0 }: EmptyStateProps) {
  const noMcp = noMcpLine(otherStreams.length + otherStreamsLeftOff);
  return (
    <div class="empty-state" data-testid="empty-state">
      <p class="empty-main">
        {noMcp ?? 'Open a page that talks MCP over Streamable HTTP; reload to capture from the start.'}
      </p>
      <p class="dim">
        {live
          ? 'Or import a capture, a HAR file or a saved event stream: use Import or drop a file here.'
          : 'No extension here: import a capture, a HAR file or a saved event stream (Import, or drop a file here).'}
      </p>
      <OtherStreams streams={otherStreams} leftOff={otherStreamsLeftOff} initiallyOpen />
    </div>
  );
}
