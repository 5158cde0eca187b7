// Panel: one SSE event: what it carried (JSON tree, raw text with chunk boundaries), where its bytes were, and the
// request it answers. A payload above the truncation size shows its head until "show all" loads it whole.
import { Fragment } from 'preact';
import type { EventDetailData, EventRef, TextSegment } from '../analysis/messages';
import { refKey, type WholePayload } from '../hooks/useAnalysis';
import { formatBytes, formatRelMs, formatCount } from '../view/format';
import { JsonTree } from './JsonTree';

export type EventTab = 'preview' | 'raw' | 'bytes';

export function EventSummary({
  event,
  onSelectConnection,
}: {
  event: EventDetailData;
  onSelectConnection(id: string): void;
}) {
  return (
    <dl class="kv">
      <dt>Event</dt>
      <dd>
        <span class="mono">{event.type}</span>
        {event.hasId ? (
          <>
            {' '}
            id <span class="mono selectable">{event.lastEventId}</span>
          </>
        ) : null}
      </dd>
      <dt>Stream</dt>
      <dd>
        <span class="mono">{event.streamId}</span> on{' '}
        <button type="button" class="link mono" onClick={() => onSelectConnection(event.ref.connectionId)}>
          {event.ref.connectionId}
        </button>
      </dd>
      <dt>Time</dt>
      <dd class="num">{event.time} ms after session start</dd>
      {event.retry !== undefined ? (
        <>
          <dt>retry</dt>
          <dd class="num">{event.retry} ms</dd>
        </>
      ) : null}
      {event.answers.map((a, i) => (
        <Fragment key={i}>
          <dt>Answers</dt>
          <dd>
            <span class="mono">{a.text}</span> sent on{' '}
            <button type="button" class="link mono" onClick={() => onSelectConnection(a.connectionId)}>
              {a.connectionId}
            </button>
          </dd>
        </Fragment>
      ))}
      {event.problem !== undefined ? (
        <>
          <dt>Problem</dt>
          <dd class="problem">{event.problem}</dd>
        </>
      ) : null}
    </dl>
  );
}

/** The bar over a cut payload: how much is shown, and the way to the rest. */
function Truncated({
  shown,
  total,
  loading,
  onShowAll,
}: {
  shown: number;
  total: number;
  loading: boolean;
  onShowAll(): void;
}) {
  return (
    <div class="truncated-bar" data-testid="payload-truncated">
      <span>
        Showing the first <span class="num">{formatBytes(shown)}</span> of <span class="num">{formatBytes(total)}</span>
        .
      </span>
      <button type="button" class="link" data-testid="payload-show-all" disabled={loading} onClick={onShowAll}>
        {loading ? 'Loading…' : 'Show all'}
      </button>
    </div>
  );
}

function RawText({ segments, cut }: { segments: readonly TextSegment[]; cut: boolean }) {
  return (
    <pre class="raw selectable" aria-label="Raw event bytes as text; marks show chunk boundaries">
      {segments.map((s, i) => (
        <span key={s.chunk} class="raw-seg">
          {i > 0 ? <span class="chunk-mark" title={`chunk ${s.chunk} starts here`} /> : null}
          {s.text}
        </span>
      ))}
      {cut ? <span class="raw-cut">…</span> : null}
    </pre>
  );
}

export function EventTabBody({
  event,
  tab,
  whole,
  loading,
  onLoadWhole,
}: {
  event: EventDetailData;
  tab: EventTab;
  whole: WholePayload | undefined;
  loading: string | undefined;
  onLoadWhole(event: EventRef): void;
}) {
  const { payload } = event;
  const loaded = whole?.key === refKey(event.ref) ? whole : undefined;
  const cut = payload.truncated && !loaded;
  const segments = loaded?.segments ?? payload.segments;
  const json = loaded ? loaded.json : payload.json;
  const shownBytes = Math.min(
    payload.bytes,
    payload.segments.reduce((n, s) => n + s.text.length, 0),
  );
  const bar = cut ? (
    <Truncated
      shown={shownBytes}
      total={payload.bytes}
      loading={loading === refKey(event.ref)}
      onShowAll={() => onLoadWhole(event.ref)}
    />
  ) : null;
  if (tab === 'preview') {
    if (json) return <JsonTree value={json.value} />;
    return (
      <>
        {bar}
        {cut ? (
          <RawText segments={segments} cut />
        ) : (
          <p class="dim pad">
            {event.empty ? 'No data: a priming event (id only) or an empty message.' : 'Not JSON: see Raw.'}
          </p>
        )}
      </>
    );
  }
  if (tab === 'raw') {
    return (
      <>
        {bar}
        <RawText segments={segments} cut={cut} />
      </>
    );
  }
  return (
    <div class="pad">
      <p>
        Bytes <span class="num">{formatCount(event.ref.start)}</span>–<span class="num">{formatCount(event.end)}</span>{' '}
        of <span class="mono">{event.ref.connectionId}</span> ({formatBytes(payload.bytes)}), in{' '}
        {event.spans.length + event.spansLeftOff} chunk{event.spans.length + event.spansLeftOff === 1 ? '' : 's'}.
      </p>
      <table class="mini-table">
        <thead>
          <tr>
            <th>Chunk</th>
            <th class="num">Bytes</th>
            <th class="num">Size</th>
            <th class="num">Arrived (ms)</th>
          </tr>
        </thead>
        <tbody>
          {event.spans.map((s) => (
            <tr key={s.chunk}>
              <td class="num">#{s.chunk}</td>
              <td class="num">
                {s.start}–{s.end}
              </td>
              <td class="num">{formatBytes(s.end - s.start)}</td>
              <td class="num">+{formatRelMs(s.t - event.t0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {event.spansLeftOff > 0 ? <p class="dim">… and {event.spansLeftOff} more chunks.</p> : null}
    </div>
  );
}
