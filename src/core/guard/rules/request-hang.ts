// Runs anywhere (pure core): rule request-hang.
import { at, describeId } from '../facts';
import { span } from '../silence-facts';
import type { Report, Rule } from '../types';
import { waitingRequests, type WaitingRequest } from '../waiting';

export const requestHang: Rule = {
  id: 'request-hang',
  severity: 'warning',
  title: 'Request hangs',
  summary:
    'A request is still unanswered while its stream stays open and has sent no message for longer than the hang threshold.',
  check(model) {
    // One report per connection, naming every request that waits on it (a batch POST has several).
    const hung = new Map<string, WaitingRequest[]>();
    for (const waiting of waitingRequests(model)) {
      if (waiting.quietMs < model.silence.hangMs) continue;
      hung.set(waiting.request.id, [...(hung.get(waiting.request.id) ?? []), waiting]);
    }
    const reports: Report[] = [];
    for (const requests of hung.values()) {
      const first = requests[0] as WaitingRequest;
      const { current } = first;
      const ids = requests.map((w) => `${describeId(w.id)} (${w.method})`).join(', ');
      const head = current.record.status === undefined ? 'has had no response yet' : `${current.id} is open`;
      reports.push({
        message: `request ${ids} has waited ${span(first.waitedMs)} unanswered: ${head} and sent no message for ${span(first.quietMs)} (its last byte ${span(first.silentMs)} ago).`,
        ...at(current, { time: model.observedUntil }),
      });
    }
    return reports;
  },
};
