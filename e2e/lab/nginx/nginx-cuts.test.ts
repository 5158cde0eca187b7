// Runs in Node (vitest): Debian's nginx 1.22 (proxy_read_timeout 2s, its defaults otherwise) between the real SDK 1.32
// client and server: what its idle timeout does to the streams, as the client received them, checked against nginx's
// own log and the server's log of what it wrote and stored; and the fixed setup (server keep-alives) with no cut.
import { describe, expect, it } from 'vitest';
import { bodyText } from '../client/recording-fetch';
import { streamProgressText } from '../payload';
import { requestHeader, resumes, wireEvents } from '../testing';
import { startNginx } from './nginx';
import { findRun, KEEPALIVE_MS, READ_TIMEOUT_S, runIntermediary } from './runs';
import {
  longestSilence,
  only,
  primingOf,
  silenceBeforeEnd,
  standaloneGets,
  storedAnswer,
  toolCall,
  upstreamTimeouts,
} from './wire-facts';
import type { ConnectionRecord } from '../../../src/core/capture/model';

const TIMEOUT_MS = READ_TIMEOUT_S * 1000;

/**
 * nginx does not move a timer that would change by less than this (NGX_TIMER_LAZY_DELAY, src/event/ngx_event_timer.h):
 * a read shortly after the request was sent leaves the first deadline in place, so a cut can come up to 300 ms early.
 */
const NGINX_LAZY_TIMER_MS = 300;

/**
 * A connection nginx cut: 200, then a network error (no terminating chunk) after a silence of the read timeout. The
 * client's times are when the SDK read each chunk, which can lag its arrival by tens of ms; `lastWriteAt`, the
 * server's own time of its last write on the stream, is what nginx measured from (the response head without it).
 */
function expectCutAfterTimeout(c: ConnectionRecord, lastWriteAt?: number): void {
  expect(c.status).toBe(200);
  expect(c.end).toBe('network-error');
  expect(c.error).toMatch(/terminated/);
  expect(silenceBeforeEnd(c)).toBeGreaterThanOrEqual(TIMEOUT_MS - NGINX_LAZY_TIMER_MS);
  expect(silenceBeforeEnd(c)).toBeLessThan(2 * TIMEOUT_MS);
  const since = lastWriteAt ?? c.responseTime ?? c.startTime;
  expect((c.endTime as number) - since).toBeGreaterThanOrEqual(TIMEOUT_MS - NGINX_LAZY_TIMER_MS);
}

describe('nginx in front of the SDK 1.32 server', () => {
  it('runs as a foreground child on 127.0.0.1 and close() ends its master and workers by pid', async () => {
    const nginx = await startNginx({ upstream: 'http://127.0.0.1:9', readTimeoutS: READ_TIMEOUT_S });
    const workers = nginx.workers();
    expect(nginx.config).toContain('daemon off;');
    expect(nginx.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(workers.length).toBeGreaterThan(0);
    // nginx answers (502: nothing listens upstream).
    expect((await fetch(`${nginx.url}/mcp`)).status).toBe(502);
    await nginx.close();
    for (const pid of [nginx.pid, ...workers]) expect(() => process.kill(pid, 0)).toThrow('ESRCH');
    await expect(fetch(`${nginx.url}/mcp`)).rejects.toThrow('fetch failed');
  });

  it('cuts the idle standalone GET after the read timeout, 0 bytes each time; the client opens it again', async () => {
    const o = await runIntermediary(findRun('nginx-idle-get-cut'));
    expect(o.result.verdict).toBe('ok');
    const gets = standaloneGets(o);
    const cut = gets.filter((c) => c.end === 'network-error');
    expect(cut.length).toBeGreaterThanOrEqual(3);
    for (const c of cut) {
      expectCutAfterTimeout(c);
      expect(c.chunks).toEqual([]);
      // The client opened the stream again after each cut.
      expect(gets.some((g) => g.startTime >= (c.endTime as number))).toBe(true);
    }
    // Every network error on the client is one of nginx's upstream timeouts, and nothing else failed.
    expect(o.connections.filter((c) => c.end === 'network-error')).toEqual(cut);
    expect(upstreamTimeouts(o.nginxLog)).toBe(cut.length);
    // The server wrote nothing on its GET streams (its keep-alive comes every 15 s, the SDK's default).
    expect(o.writes.filter((w) => w.path === '/mcp' && w.method === 'GET' && w.text !== '')).toEqual([]);
    // The last one was still open when the client closed.
    expect(gets.at(-1)?.end).toBe('aborted');
  });

  it('cuts a tool call silent longer than the timeout; the client resumes and the answer comes on the resume', async () => {
    const o = await runIntermediary(findRun('nginx-slow-call-cut'));
    expect(o.result.verdict).toBe('ok');
    expect(o.result.calls[0]?.progress).toEqual([1]);
    const call = toolCall(o);
    const priming = primingOf(o);
    // The POST stream delivered the priming event and nothing else, then nginx cut it.
    expect(bodyText(call)).toBe(priming.text);
    expectCutAfterTimeout(call, priming.t);
    const resume = only(resumes(o.connections), 'resumes');
    expect(requestHeader(resume, 'last-event-id')).toBe(priming.id);
    expect(resume.end).toBe('complete');
    const events = wireEvents(resume).map((e) => JSON.parse(e.data) as { method?: string; result?: unknown });
    expect(events.map((e) => e.method ?? 'result')).toEqual(['notifications/progress', 'result']);
    expect(bodyText(resume)).toContain(JSON.stringify(streamProgressText({ count: 1, delayMs: 3000 })).slice(1, -1));
    // Causality: the server produced the answer after nginx had cut the POST stream, while the resume was open.
    const answer = storedAnswer(o);
    expect(answer.t).toBeGreaterThan(call.endTime as number);
    expect(answer.t).toBeGreaterThanOrEqual(resume.startTime);
    expect(upstreamTimeouts(o.nginxLog)).toBe(o.connections.filter((c) => c.end === 'network-error').length);
  });

  it('cuts the resume of a call silent for two timeouts too: the client loses its cursor and the call hangs', async () => {
    const o = await runIntermediary(findRun('nginx-slow-call-lost'));
    expect(o.result.verdict).toBe('hung');
    const call = toolCall(o);
    expect(bodyText(call)).toBe(primingOf(o).text);
    expectCutAfterTimeout(call, primingOf(o).t);
    // Exactly one resume carried Last-Event-ID: nginx cut it with 0 bytes.
    const resume = only(resumes(o.connections), 'resumes');
    expect(requestHeader(resume, 'last-event-id')).toBe(primingOf(o).id);
    expectCutAfterTimeout(resume);
    expect(resume.chunks).toEqual([]);
    // After it the client reconnected without a cursor: refused 409 while its standalone GET was open.
    const refused = o.connections.filter((c) => c.method === 'GET' && c.status === 409);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.startTime).toBeGreaterThanOrEqual(resume.endTime as number);
      expect(requestHeader(r, 'last-event-id')).toBeUndefined();
      const open = standaloneGets(o).filter(
        (g) => g.status === 200 && g.startTime <= r.startTime && (g.endTime ?? Infinity) >= (r.endTime as number),
      );
      expect(open).toHaveLength(1);
    }
    expect(o.originErrors.map((e) => e.message)).toContain('Conflict: Only one SSE stream is allowed per session');
    expect(o.result.clientErrors).toContain('Maximum reconnection attempts (2) exceeded.');
    // The server produced the answer after the resume was cut; no connection ever delivered it.
    expect(storedAnswer(o).t).toBeGreaterThan(resume.endTime as number);
    const text = JSON.stringify(streamProgressText({ count: 1, delayMs: 5500 })).slice(1, -1);
    for (const c of o.connections) expect(bodyText(c)).not.toContain(text);
  });

  it('with server keep-alives shorter than the timeout (the fix): no cut, the answer on its own stream', async () => {
    const o = await runIntermediary(findRun('nginx-keepalive-fixed'));
    expect(o.result.verdict).toBe('ok');
    expect(o.result.calls[0]?.progress).toEqual([1]);
    expect(o.connections.filter((c) => c.end === 'network-error')).toEqual([]);
    expect(upstreamTimeouts(o.nginxLog)).toBe(0);
    expect(resumes(o.connections)).toEqual([]);
    const call = toolCall(o);
    expect(call.end).toBe('complete');
    expect(longestSilence(call)).toBeLessThan(TIMEOUT_MS);
    const body = bodyText(call);
    expect(body.startsWith(primingOf(o).text)).toBe(true);
    // The comments the server wrote, every KEEPALIVE_MS, reached the client through nginx.
    const comments = body.split(': keepalive\n\n').length - 1;
    expect(comments).toBe(o.writes.filter((w) => w.rpc === 'tools/call' && w.text === ': keepalive\n\n').length);
    expect(comments).toBeGreaterThanOrEqual(Math.floor(5500 / KEEPALIVE_MS) - 2);
    const get = only(standaloneGets(o), 'standalone GETs');
    expect(bodyText(get).replaceAll(': keepalive\n\n', '')).toBe('');
    expect(longestSilence(get)).toBeLessThan(TIMEOUT_MS);
  });
});
