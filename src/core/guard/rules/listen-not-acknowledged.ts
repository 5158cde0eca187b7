// Runs anywhere (pure core): rule listen-not-acknowledged.
import type { JsonRpcId } from '../../mcp/types';
import { at, describeId } from '../facts';
import { bodyMessage, deliveredOn, paramsOf, statelessSessions } from '../stateless';
import type { Report, Rule } from '../types';

const ACK = 'notifications/subscriptions/acknowledged';
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

export const listenNotAcknowledged: Rule = {
  id: 'listen-not-acknowledged',
  severity: 'error',
  title: 'subscriptions/listen stream not opened by its acknowledgment',
  summary:
    'In protocol 2026-07-28 a subscriptions/listen stream must start with notifications/subscriptions/acknowledged carrying the listen request id as its subscriptionId; this one did not.',
  eras: ['2026-07-28'],
  check(model) {
    const reports: Report[] = [];
    for (const session of statelessSessions(model)) {
      for (const conn of session.connections) {
        const listen = bodyMessage(conn);
        if (listen?.kind !== 'request' || listen.method !== 'subscriptions/listen' || listen.id === undefined) continue;
        if (conn.record.status === undefined || conn.record.status >= 400) continue; // refused at the HTTP level
        const first = deliveredOn(model, conn)[0];
        const id: JsonRpcId = listen.id;
        const name = `subscriptions/listen (id ${describeId(id)}) on ${conn.id}`;
        let problem: string | undefined;
        if (!first) {
          if (conn.record.end === 'open') continue; // the acknowledgment may still come
          problem = 'ended without any message';
        } else if (first.message.kind === 'error' && first.message.id === id) {
          continue; // refused in-band (the SDK's "Subscription limit reached"): no subscription to acknowledge
        } else if (first.message.method !== ACK) {
          const what = first.message.method ?? `a ${first.message.kind}`;
          problem = `got ${what} as its first message`;
        } else {
          const meta = paramsOf(first.message)?.['_meta'] as Record<string, unknown> | undefined;
          const subscription = meta?.[SUBSCRIPTION_ID];
          if (subscription !== id)
            problem =
              subscription === undefined
                ? `was acknowledged without ${SUBSCRIPTION_ID}`
                : `was acknowledged as subscription ${JSON.stringify(subscription)}`;
        }
        if (problem === undefined) continue;
        reports.push({
          message: `${name} ${problem}.`,
          ...at(conn, first?.event ? { byteOffset: first.event.start, time: first.event.time } : {}),
        });
      }
    }
    return reports;
  },
};
