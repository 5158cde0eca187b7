// Runs in Node (vitest): the silence faults of `mcp-stream-inspector proxy` (buffer, stall, idle-cut) in front of the
// lab's real SDK 1.32 server, with the real SDK 1.32 client through it. Between the proxy and the server sits a
// pass-through that notes when the server's bytes left it, so "held until the end" is shown by causality: every
// byte the client got came after the server's last write. No duration is asserted.
import { createServer, request, type IncomingMessage } from 'node:http';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConnectionRecord } from '../../src/core/capture/model';
import { closeServer, listen, trackSockets } from '../../src/proxy/node-http';
import { bodyText, recordingFetch, requestHeader } from './client/recording-fetch';
import { runScenario, type RunResult } from './client/run-scenario';
import {
  analyzedRules,
  clientScenario,
  exchangeLines,
  RECORDINGS,
  startCliProxyAt,
  startOrigin,
  until,
} from './proxy-run';
import type { ToolCall } from './scenarios';
import { MCP_PATH, type ServerInstance } from './server/instance';
import { postKind, resumes, wireEvents } from './testing';

const TIMEOUT = 30_000;
const progress = (count: number, delayMs: number): ToolCall => ({ tool: 'stream_progress', args: { count, delayMs } });

/** What the server sent on one exchange, as it left the server: each piece with the moment it passed. */
interface UpstreamExchange {
  method: string;
  requestBody: string;
  pieces: { t: number; text: string }[];
}

/** A pass-through in front of `origin` that notes every response piece as it comes from the server. */
async function upstreamWatch(
  origin: ServerInstance,
): Promise<{ url: string; exchanges: UpstreamExchange[]; close(): Promise<void> }> {
  const exchanges: UpstreamExchange[] = [];
  const target = new URL(origin.url);
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      const seen: UpstreamExchange = { method: req.method ?? 'GET', requestBody: body.toString(), pieces: [] };
      exchanges.push(seen);
      const upstream = request(
        // Its own Host (the SDK server checks the host it is reached at), one connection per exchange as the proxy.
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: target.host },
          agent: false,
        },
        (answer: IncomingMessage) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.flushHeaders();
          answer.on('data', (piece: Buffer) => {
            seen.pieces.push({ t: Date.now(), text: piece.toString() });
            res.write(piece);
          });
          answer.on('end', () => res.end());
          answer.on('error', () => res.destroy());
        },
      );
      upstream.on('error', () => res.destroy());
      res.on('close', () => upstream.destroy());
      upstream.end(body);
    });
  });
  const sockets = trackSockets(server);
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, exchanges, close: () => closeServer(server, sockets) };
}

interface Run {
  result: RunResult;
  connections: ConnectionRecord[];
  upstream: UpstreamExchange[];
  faults: string[];
  rules: string[];
}

/** The SDK client's calls through `proxy --fault ...` in front of a fresh origin, watched on both sides. */
async function through(
  args: string[],
  calls: ToolCall[],
  name: string,
  extra: { lingerMs?: number } = {},
): Promise<Run> {
  const origin = await startOrigin('integer');
  const watch = await upstreamWatch(origin);
  try {
    mkdirSync(RECORDINGS, { recursive: true });
    const file = join(RECORDINGS, `${name}.json`);
    const proxy = await startCliProxyAt(`${watch.url}${MCP_PATH}`, [...args, '--record', file]);
    const recorder = recordingFetch();
    const scenario = { ...clientScenario('clean', calls), callTimeoutMs: 10_000, ...extra };
    const result = await runScenario(scenario, {
      baseUrl: new URL(proxy.url).origin,
      fetch: recorder.fetch,
      selectScenario: false,
    });
    await until(() => exchangeLines(proxy.lines()) >= recorder.connections.length);
    expect(await proxy.stop()).toBe(0);
    const faults = proxy.lines().filter((line) => line.startsWith('fault '));
    const rules = await analyzedRules(file);
    return { result, connections: recorder.connections, upstream: watch.exchanges, faults, rules };
  } finally {
    await watch.close();
    await origin.close();
  }
}

const toolCalls = (connections: ConnectionRecord[]) => connections.filter((c) => postKind(c) === 'tools/call');
const upstreamCall = (run: Run): UpstreamExchange => {
  const call = run.upstream.find((x) => x.method === 'POST' && x.requestBody.includes('"tools/call"'));
  if (!call) throw new Error('the server never got the call');
  return call;
};
const written = (x: UpstreamExchange): string => x.pieces.map((p) => p.text).join('');

describe.concurrent('silence faults through mcp-stream-inspector proxy, the real SDK 1.32 client and server', () => {
  it(
    'buffer: the head and every event reach the client after the server wrote its last; byte for byte; buffered-stream',
    async () => {
      const run = await through(['--fault', 'buffer'], [progress(3, 400)], 'silence-buffer');
      expect(run.result.verdict, run.result.detail).toBe('ok');
      expect(run.result.calls[0]?.progress).toEqual([1, 2, 3]);
      const server = upstreamCall(run);
      // The server wrote over time: the priming event, each progress, the result, in pieces of their own.
      expect(server.pieces.length).toBeGreaterThanOrEqual(5);
      const [call] = toolCalls(run.connections);
      const lastWrite = server.pieces.at(-1)?.t as number;
      // Causality: the head and each chunk came only after the server's last write.
      expect(call?.responseTime).toBeGreaterThanOrEqual(lastWrite);
      for (const chunk of call?.chunks ?? []) expect(chunk.t).toBeGreaterThanOrEqual(lastWrite);
      expect(bodyText(call!)).toBe(written(server));
      expect(wireEvents(call!).map((e) => e.data === '')).toEqual([true, false, false, false, false]);
      expect(run.faults).toHaveLength(1);
      expect(run.faults[0]).toMatch(
        /^fault buffer {2}buffer {2}method=tools\/call tool=stream_progress .*head=held bytes=\d+ events=5 released=true$/,
      );
      expect(run.rules).toEqual(['buffered-stream']);
    },
    TIMEOUT,
  );

  it(
    'buffer:body: the head comes as the server sends it, the events only after its last write',
    async () => {
      const run = await through(['--fault', 'buffer:body'], [progress(3, 400)], 'silence-buffer-body');
      expect(run.result.verdict, run.result.detail).toBe('ok');
      const server = upstreamCall(run);
      const [call] = toolCalls(run.connections);
      const firstWrite = server.pieces[0]?.t as number;
      const lastWrite = server.pieces.at(-1)?.t as number;
      // The head came before the server's last write; every byte of the body only after it.
      expect(call?.responseTime).toBeLessThan(lastWrite);
      expect(firstWrite).toBeLessThan(lastWrite);
      for (const chunk of call?.chunks ?? []) expect(chunk.t).toBeGreaterThanOrEqual(lastWrite);
      expect(bodyText(call!)).toBe(written(server));
      expect(run.faults[0]).toMatch(/head=sent .*released=true$/);
      expect(run.rules).toEqual(['buffered-stream']);
    },
    TIMEOUT,
  );

  it(
    'stall:1000: the priming event passes, then nothing until the server wrote its last; everything arrives whole',
    async () => {
      const run = await through(['--fault', 'stall:1000'], [progress(3, 0)], 'silence-stall');
      expect(run.result.verdict, run.result.detail).toBe('ok');
      expect(run.result.calls[0]?.progress).toEqual([1, 2, 3]);
      const server = upstreamCall(run);
      const [call] = toolCalls(run.connections);
      // One stream, never cut, never resumed: the stall keeps the connection open (the client lets go once answered).
      expect(call?.end).not.toBe('network-error');
      expect(resumes(run.connections)).toEqual([]);
      expect(bodyText(call!)).toBe(written(server));
      // The priming event came alone, first (as the server wrote it); the rest only after the server wrote its last.
      expect(wireEvents(call!)[0]?.data).toBe('');
      const [first, ...rest] = call?.chunks ?? [];
      expect(new TextDecoder().decode(first?.bytes)).toBe(server.pieces[0]?.text);
      const lastWrite = server.pieces.at(-1)?.t as number;
      for (const chunk of rest) expect(chunk.t).toBeGreaterThanOrEqual(lastWrite);
      expect(run.faults).toEqual([
        expect.stringMatching(
          /^fault stall:1000 {2}stall {2}method=tools\/call tool=stream_progress .*ms=1000 frameIndex=1 bytesForwarded=\d+$/,
        ),
      ]);
    },
    TIMEOUT,
  );

  it(
    'idle-cut:1: a call silent past it is cut after the priming event; the client resumes from it and gets the answer',
    async () => {
      const run = await through(['--fault', 'idle-cut:1'], [progress(1, 2500)], 'silence-idle-cut');
      expect(run.result.verdict, run.result.detail).toBe('ok');
      expect(run.result.calls[0]?.progress).toEqual([1]);
      const [call] = toolCalls(run.connections);
      expect(call?.end).toBe('network-error');
      // Cut before the server wrote anything after its priming event: the client held that event only.
      const server = upstreamCall(run);
      const primingId = wireEvents(call!).map((e) => e.id);
      expect(wireEvents(call!).map((e) => e.data)).toEqual(['']);
      expect(server.pieces.map((p) => p.text)).toEqual([bodyText(call!)]);
      // Causality: the cut came before the server wrote its progress, which the resume then carried.
      const resumed = run.upstream.find((x) => x.pieces.some((p) => p.text.includes('notifications/progress')));
      expect(resumed?.method).toBe('GET');
      expect(call?.endTime).toBeLessThanOrEqual(resumed?.pieces.find((p) => p.text.includes('progress'))?.t as number);
      const [resume] = resumes(run.connections);
      expect(requestHeader(resume!, 'last-event-id')).toBe(primingId[0]);
      expect(bodyText(resume!)).toContain('"result"');
      expect(run.faults).toEqual([
        expect.stringMatching(
          new RegExp(
            `^fault idle-cut:1 {2}idle-cut {2}method=tools/call tool=stream_progress .*idleMs=1000 midEvent=false frameIndex=0 bytesIntoFrame=0 bytesForwarded=\\d+ lastCompleteEventId=${primingId[0]}$`,
          ),
        ),
      ]);
    },
    TIMEOUT,
  );

  it(
    'idle-cut:1@every: every silent stream is cut, the standalone GET again and again; analyze finds idle-timeout-cut',
    async () => {
      // A quick call; the client then stays 2.5 s with its standalone GET open and silent.
      const run = await through(['--fault', 'idle-cut:1@every'], [progress(1, 0)], 'silence-idle-every', {
        lingerMs: 2500,
      });
      expect(run.result.verdict, run.result.detail).toBe('ok');
      const gets = run.connections.filter((c) => c.method === 'GET' && requestHeader(c, 'last-event-id') === undefined);
      expect(gets.length).toBeGreaterThanOrEqual(2);
      const cut = gets.filter((c) => c.end === 'network-error');
      expect(cut.length).toBeGreaterThanOrEqual(2);
      // The standalone GETs carried no byte before their cut: each was cut for its silence.
      for (const get of cut) expect(bodyText(get)).toBe('');
      // One strike each (a last one may fall as the client closes, unrecorded by it).
      expect(run.faults.filter((line) => /idle-cut {2}method=GET /.test(line)).length).toBeGreaterThanOrEqual(
        cut.length,
      );
      expect(run.rules).toContain('idle-timeout-cut');
    },
    TIMEOUT,
  );
});
