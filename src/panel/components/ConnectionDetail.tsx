// Panel: one HTTP exchange: request and response heads, the POST body, how it ended, and a torn tail.
import { Fragment } from 'preact';
import type { HttpHeader } from '../../core/capture/model';
import type { ConnectionView } from '../../core/model/types';
import { formatBytes, formatRelMs } from '../view/format';
import type { PanelView } from '../view/model';
import { JsonTree } from './JsonTree';

export type ConnectionTab = 'headers' | 'payload' | 'tail';

export function connectionTabs(c: ConnectionView): ConnectionTab[] {
  const tabs: ConnectionTab[] = ['headers'];
  if (c.record.requestBody !== undefined) tabs.push('payload');
  if (c.tail && c.tail.bytes.length > 0) tabs.push('tail');
  return tabs;
}

export function ConnectionSummary({
  view,
  c,
  onSelectConnection,
}: {
  view: PanelView;
  c: ConnectionView;
  onSelectConnection(id: string): void;
}) {
  const r = c.record;
  const session = view.sessionsByKey.get(c.sessionKey);
  const start = session?.startTime ?? view.analysis.startTime;
  return (
    <dl class="kv">
      <dt>Request</dt>
      <dd class="mono selectable">
        {r.method} {r.url}
      </dd>
      <dt>Status</dt>
      <dd>{r.status !== undefined ? `${r.status} ${r.statusText ?? ''}` : 'no response head'}</dd>
      <dt>Role</dt>
      <dd>
        {c.role}
        {c.streamId ? (
          <>
            {' '}
            · stream <span class="mono">{c.streamId}</span>
          </>
        ) : null}{' '}
        · <span class="mono">{c.id}</span>
      </dd>
      {c.lastEventIdSent !== undefined ? (
        <>
          <dt>Last-Event-ID</dt>
          <dd class="mono selectable">{c.lastEventIdSent}</dd>
        </>
      ) : null}
      {c.resumes !== undefined ? (
        <>
          <dt>Resumes</dt>
          <dd>
            <button type="button" class="link mono" onClick={() => onSelectConnection(c.resumes as string)}>
              {c.resumes}
            </button>
          </dd>
        </>
      ) : null}
      <dt>Timing</dt>
      <dd class="num">
        +{formatRelMs(r.startTime - start)} ms
        {r.endTime !== undefined ? `, lasted ${formatRelMs(r.endTime - r.startTime)} ms` : ', still open'}
      </dd>
      <dt>Ended</dt>
      <dd class={r.end === 'complete' || r.end === 'open' ? '' : 'problem'}>
        {r.end}
        {r.error ? `: ${r.error}` : ''}
      </dd>
      <dt>Body</dt>
      <dd class="num">
        {formatBytes(c.bytes)} in {r.chunks.length} chunks, {c.eventIndexes.length} events
      </dd>
    </dl>
  );
}

export function ConnectionTabBody({ c, tab }: { c: ConnectionView; tab: ConnectionTab }) {
  const r = c.record;
  if (tab === 'headers') {
    return (
      <div class="pad">
        <Headers title="Request headers" headers={r.requestHeaders} />
        {r.responseHeaders ? <Headers title="Response headers" headers={r.responseHeaders} /> : null}
      </div>
    );
  }
  if (tab === 'payload') {
    const messages = c.requestMessages;
    if (messages.length > 0)
      return <JsonTree value={messages.length === 1 ? messages[0]?.value : messages.map((m) => m.value)} />;
    return <pre class="raw selectable">{r.requestBody}</pre>;
  }
  const tail = c.tail;
  if (!tail) return null;
  return (
    <div class="pad">
      <p>
        The connection ended holding <span class="num">{formatBytes(tail.bytes.length)}</span> of an undispatched event
        from byte <span class="num">{tail.start}</span>
        {tail.hasData ? ', with data' : ', before any data field was complete'}. These bytes never became an event.
      </p>
      {tail.id !== undefined ? (
        <p>
          Its id field: <span class="mono selectable">{tail.id}</span>
        </p>
      ) : null}
      <pre class="raw torn selectable">{new TextDecoder().decode(tail.bytes)}</pre>
    </div>
  );
}

function Headers({ title, headers }: { title: string; headers: readonly HttpHeader[] }) {
  return (
    <>
      <h4 class="section-title">{title}</h4>
      <dl class="kv headers">
        {headers.map((h, i) => (
          <Fragment key={i}>
            <dt class="mono">{h.name}</dt>
            <dd class="mono selectable">{h.value}</dd>
          </Fragment>
        ))}
      </dl>
    </>
  );
}
