// Panel: one HTTP exchange: request and response heads, the POST body, how it ended, and a torn tail.
import { Fragment } from 'preact';
import type { HttpHeader } from '../../core/capture/model';
import type { ConnectionDetailData, ConnectionTab } from '../analysis/messages';
import { formatBytes } from '../view/format';
import { RELAYED_LABEL } from '../view/relayed';
import { JsonTree } from './JsonTree';

/** The connections this one continues, each a term of the summary and a link to it. */
const LINKED: readonly (readonly ['resumes' | 'retryOf' | 'reissueOf' | 'taskOf', string])[] = [
  ['resumes', 'Resumes'],
  ['retryOf', 'Retry of'],
  ['reissueOf', 'Re-issue of'],
  ['taskOf', 'Task of'],
];

export function ConnectionSummary({
  c,
  onSelectConnection,
}: {
  c: ConnectionDetailData;
  onSelectConnection(id: string): void;
}) {
  return (
    <dl class="kv">
      <dt>Request</dt>
      <dd class="mono selectable">
        {c.method} {c.url}
      </dd>
      <dt>Status</dt>
      <dd>{c.status !== undefined ? `${c.status} ${c.statusText ?? ''}` : 'no response head'}</dd>
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
      {c.relayed !== undefined ? (
        <>
          <dt>Relayed</dt>
          <dd class="relayed" data-testid="connection-relayed" title={c.relayed}>
            {RELAYED_LABEL}
          </dd>
        </>
      ) : null}
      {c.lastEventIdSent !== undefined ? (
        <>
          <dt>Last-Event-ID</dt>
          <dd class="mono selectable">{c.lastEventIdSent}</dd>
        </>
      ) : null}
      {LINKED.map(([field, term]) => {
        const to = c[field];
        return to === undefined ? null : (
          <Fragment key={field}>
            <dt>{term}</dt>
            <dd>
              <button
                type="button"
                class="link mono"
                data-testid={`linked-${field}`}
                onClick={() => onSelectConnection(to)}
              >
                {to}
              </button>
            </dd>
          </Fragment>
        );
      })}
      <dt>Timing</dt>
      <dd class="num">
        +{c.started} ms
        {c.lasted !== undefined ? `, lasted ${c.lasted} ms` : ', still open'}
      </dd>
      <dt>Ended</dt>
      <dd class={c.end === 'complete' || c.end === 'open' ? '' : 'problem'}>
        {c.end}
        {c.error ? `: ${c.error}` : ''}
      </dd>
      <dt>Body</dt>
      <dd class="num">
        {formatBytes(c.bytes)} in {c.chunks} chunks, {c.events} events
      </dd>
      {c.faults?.map((f, i) => (
        <Fragment key={i}>
          <dt>Fault</dt>
          <dd class="fault-struck" data-testid="connection-fault">
            <span class="mono">{f.fault}</span> struck at byte <span class="num">{f.offset}</span>
            {f.note ? <span class="fault-note"> · {f.note}</span> : null}
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}

function Cut({ shown, total }: { shown: number; total: number }) {
  return (
    <div class="truncated-bar" data-testid="payload-truncated">
      Showing the first <span class="num">{formatBytes(shown)}</span> of <span class="num">{formatBytes(total)}</span>{' '}
      (export the capture for all of it).
    </div>
  );
}

export function ConnectionTabBody({ c, tab }: { c: ConnectionDetailData; tab: ConnectionTab }) {
  if (tab === 'headers') {
    return (
      <div class="pad">
        <Headers title="Request headers" headers={c.requestHeaders} />
        {c.responseHeaders ? <Headers title="Response headers" headers={c.responseHeaders} /> : null}
      </div>
    );
  }
  if (tab === 'payload') {
    const request = c.request;
    if (!request) return null;
    if (request.json) return <JsonTree value={request.json.value} />;
    return (
      <>
        {request.truncated ? <Cut shown={request.text.length} total={request.bytes} /> : null}
        <pre class="raw selectable">{request.text}</pre>
      </>
    );
  }
  const tail = c.tail;
  if (!tail) return null;
  return (
    <div class="pad">
      <p>
        The connection ended holding <span class="num">{formatBytes(tail.bytes)}</span> of an undispatched event from
        byte <span class="num">{tail.start}</span>
        {tail.hasData ? ', with data' : ', before any data field was complete'}. These bytes never became an event.
      </p>
      {tail.id !== undefined ? (
        <p>
          Its id field: <span class="mono selectable">{tail.id}</span>
        </p>
      ) : null}
      {tail.truncated ? <Cut shown={tail.text.length} total={tail.bytes} /> : null}
      <pre class="raw torn selectable">{tail.text}</pre>
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
