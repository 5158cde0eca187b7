// Runs in Node (v2 lab server): records each exchange at the server's own socket, the request as it arrived and
// every byte the response wrote (after a cut was applied), and cuts one response stream on demand. Sits between
// node:http and the SDK's `toNodeHandler`, so nothing of the product takes part in what is recorded.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { cutResponse, readBody } from '../../../src/proxy/node-http';
import type { ExchangeTrace } from '../../../src/proxy/trace';
import type { WireRecorder } from '../proxy/wire-recorder';

/** `toNodeHandler`'s shape: the request, the response, the body when the caller already read it. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => Promise<void>;

/** Cut the response of the next request `matches` accepts, `extraBytes` into its event after `afterEvents`. */
export interface CutPlan {
  matches(body: unknown, req: IncomingMessage): boolean;
  afterEvents: number;
  extraBytes: number;
}

/** What the tap did: the plans it applied, in order. */
export interface TapLog {
  cuts: { method: string | undefined; id: unknown; bytes: number }[];
}

function headerRecord(res: ServerResponse, extra: unknown): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const put = (headers: OutgoingHttpHeaders): void => {
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) continue;
      out[name] = Array.isArray(value) ? value.map(String) : String(value);
    }
  };
  put(res.getHeaders());
  if (typeof extra === 'object' && extra !== null && !Array.isArray(extra)) put(extra as OutgoingHttpHeaders);
  return out;
}

const BLANK_LINE = /\r\n\r\n|\n\n|\r\r/g;

/** Records `res`'s head and body into `trace`; cuts it as `plan` says. */
function tapResponse(res: ServerResponse, trace: ExchangeTrace, plan: CutPlan | undefined, onCut: () => void): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  let cut = false;
  let events = 0;
  res.writeHead = (status: number, ...rest: unknown[]) => {
    const headers = rest.find((r) => typeof r === 'object');
    const message = rest.find((r) => typeof r === 'string');
    trace.head(status, typeof message === 'string' ? message : '', headerRecord(res, headers));
    return writeHead(status, ...rest);
  };
  const pass = (chunk: unknown): Buffer | undefined => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return undefined;
    return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array | string);
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (cut) return true;
    const bytes = pass(chunk);
    if (!bytes) return write(chunk, ...rest);
    if (plan && events >= plan.afterEvents) {
      cut = true;
      const torn = bytes.subarray(0, Math.min(plan.extraBytes, bytes.length));
      trace.write(torn);
      trace.cut();
      onCut();
      write(torn);
      cutResponse(res);
      return true;
    }
    events += (bytes.toString('utf8').match(BLANK_LINE) ?? []).length;
    trace.write(bytes);
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((...args: unknown[]) => {
    // A cut response never gets its terminating chunk: the socket ends as cutResponse says.
    if (cut) return res;
    const bytes = pass(args[0]);
    if (bytes) trace.write(bytes);
    return end(...args);
  }) as typeof res.end;
  res.once('finish', () => trace.end(cut ? 'aborted' : 'complete'));
  res.once('close', () => trace.end('aborted'));
}

/**
 * A node:http listener: records every exchange into `recorder`, hands the body to `handler` already parsed (the
 * SDK reads it from `parsedBody`), and applies each cut plan once, in order.
 */
export function tappedListener(
  recorder: WireRecorder,
  baseUrl: () => string,
  handler: NodeHandler,
  plans: CutPlan[],
  log: TapLog,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const trace = recorder.begin(req, baseUrl());
    void (async () => {
      const raw = await readBody(req);
      trace.requestBody(raw);
      let body: unknown;
      try {
        body = raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined;
      } catch {
        body = undefined; // not JSON (the lab's clients never send such): the SDK sees an empty body
      }
      const index = plans.findIndex((p) => p.matches(body, req));
      const plan = index >= 0 ? plans.splice(index, 1)[0] : undefined;
      const rpc = body as { method?: string; id?: unknown } | undefined;
      tapResponse(res, trace, plan, () =>
        log.cuts.push({ method: rpc?.method, id: rpc?.id, bytes: plan?.extraBytes ?? 0 }),
      );
      await handler(req, res, body);
    })().catch((error: unknown) => {
      // A lab failure, not traffic: end the exchange visibly rather than leave the client waiting.
      trace.end('failed', error instanceof Error ? error.message : String(error));
      res.destroy();
    });
  };
}
