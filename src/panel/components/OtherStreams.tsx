// Panel: the SSE streams that are not MCP, listed apart under the sessions: never judged, folded until asked for.
import { useState } from 'preact/hooks';
import type { OtherStreamRowData } from '../analysis/messages';
import { formatBytes, formatCount } from '../view/format';
import { otherStreamLabel, shortUrl } from '../view/otherStreams';

export interface OtherStreamsProps {
  streams: readonly OtherStreamRowData[];
  /** Streams not sent (the list is capped). */
  leftOff: number;
  /** Open at first (the empty state, where nothing else is shown). */
  initiallyOpen?: boolean;
}

export function OtherStreams({ streams, leftOff, initiallyOpen = false }: OtherStreamsProps) {
  const [open, setOpen] = useState(initiallyOpen);
  const total = streams.length + leftOff;
  if (total === 0) return null;
  return (
    <div class="other-streams" data-testid="other-streams" data-open={open}>
      <button
        type="button"
        class="other-streams-title"
        aria-expanded={open}
        title="SSE streams that are not MCP traffic: listed here, never judged by the rules"
        onClick={() => setOpen(!open)}
      >
        <span class="other-streams-toggle" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        <span class="pane-title">Other streams ({formatCount(total)})</span>
        <span class="pane-hint">· not MCP, not judged</span>
      </button>
      {open ? (
        <>
          {streams.map((s) => (
            <div
              key={s.connectionId}
              class="session other-stream"
              data-testid="other-stream-row"
              data-connection-id={s.connectionId}
              title={`${s.method} ${s.url}\n${s.reason}`}
            >
              <span class="session-line">
                <span class="session-id">{otherStreamLabel(s.kind)}</span>
                <span class="session-worst session-meta num">{s.status ?? 'no response'}</span>
              </span>
              <span class="session-meta mono">
                {s.method} {shortUrl(s.url)}
              </span>
              <span class="session-meta num">
                {formatCount(s.events)} ev · {formatBytes(s.bytes)}
              </span>
            </div>
          ))}
          {leftOff > 0 ? <div class="session-meta other-streams-more">and {formatCount(leftOff)} more</div> : null}
        </>
      ) : null}
    </div>
  );
}
