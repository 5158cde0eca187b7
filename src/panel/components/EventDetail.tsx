// Panel: one SSE event: what it carried (JSON tree, raw text with chunk boundaries), where its bytes were,
// and the request it answers.
import { Fragment } from 'preact';
import type { EventView } from '../../core/model/types';
import { answeredRequests, chunkSpans, eventJson, rawSegments } from '../view/detail';
import { describeMessage, formatBytes, formatRelMs } from '../view/format';
import type { PanelView } from '../view/model';
import { JsonTree } from './JsonTree';

export type EventTab = 'preview' | 'raw' | 'bytes';

export function EventSummary({
  view,
  event,
  onSelectConnection,
}: {
  view: PanelView;
  event: EventView;
  onSelectConnection(id: string): void;
}) {
  const session = view.sessionsByKey.get(event.sessionKey);
  const start = session?.startTime ?? view.analysis.startTime;
  const answers = answeredRequests(view, event);
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
        <button type="button" class="link mono" onClick={() => onSelectConnection(event.connectionId)}>
          {event.connectionId}
        </button>
      </dd>
      <dt>Time</dt>
      <dd class="num">{formatRelMs(event.time - start)} ms after session start</dd>
      {event.retry !== undefined ? (
        <>
          <dt>retry</dt>
          <dd class="num">{event.retry} ms</dd>
        </>
      ) : null}
      {answers.map((a, i) => (
        <Fragment key={i}>
          <dt>Answers</dt>
          <dd>
            <span class="mono">{describeMessage(a.message)}</span> sent on{' '}
            <button type="button" class="link mono" onClick={() => onSelectConnection(a.connection.id)}>
              {a.connection.id}
            </button>
          </dd>
        </Fragment>
      ))}
      {event.parseError !== undefined ? (
        <>
          <dt>Problem</dt>
          <dd class="problem">{event.parseError}</dd>
        </>
      ) : null}
    </dl>
  );
}

export function EventTabBody({ view, event, tab }: { view: PanelView; event: EventView; tab: EventTab }) {
  const connection = view.connectionsById.get(event.connectionId);
  if (!connection) return null;
  if (tab === 'preview') {
    const json = eventJson(event);
    if (json) return <JsonTree value={json.value} />;
    return (
      <p class="dim pad">
        {event.data === '' ? 'No data: a priming event (id only) or an empty message.' : 'Not JSON: see Raw.'}
      </p>
    );
  }
  if (tab === 'raw') {
    const segments = rawSegments(connection.record, event.start, event.end);
    return (
      <pre class="raw selectable" aria-label="Raw event bytes as text; marks show chunk boundaries">
        {segments.map((s, i) => (
          <span key={s.chunk} class="raw-seg">
            {i > 0 ? <span class="chunk-mark" title={`chunk ${s.chunk} starts here`} /> : null}
            {s.text}
          </span>
        ))}
      </pre>
    );
  }
  const spans = chunkSpans(connection.record, event.start, event.end);
  const t0 = connection.record.startTime;
  return (
    <div class="pad">
      <p>
        Bytes <span class="num">{event.start.toLocaleString('en-US')}</span>–
        <span class="num">{event.end.toLocaleString('en-US')}</span> of <span class="mono">{event.connectionId}</span> (
        {formatBytes(event.end - event.start)}), in {spans.length} chunk{spans.length === 1 ? '' : 's'}.
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
          {spans.map((s) => (
            <tr key={s.chunk}>
              <td class="num">#{s.chunk}</td>
              <td class="num">
                {s.start}–{s.end}
              </td>
              <td class="num">{formatBytes(s.end - s.start)}</td>
              <td class="num">+{formatRelMs(s.t - t0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
