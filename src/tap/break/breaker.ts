// Page MAIN world: the Break menu's faults, applied to the page's own fetch() traffic. Idle unless the panel armed
// faults over the bridge's port (channel.ts); fetch-tap.ts asks it only while `armed`, so an unarmed tap does no
// work here at all. The faults are the product's (src/core/fault: the planner and the SSE tap the CLI proxy uses),
// read from the same `--fault` specs; each strikes once (but close-resumes and an idle proxy's idle-cut@every, which
// strike until disarmed), and the breaker disarms itself once all the others have struck.
import type { Exchange, ExchangePlan, FaultReport } from '../../core/fault/planner';
import { FaultPlanner } from '../../core/fault/planner';
import { parseFaultSpec } from '../../core/fault/spec';
import type { FaultArm } from '../../protocol/break';
import type { DeltaSink } from '../channel';
import { apply } from '../intrinsics';
import type { Natives } from '../natives';
import type { RequestInfo } from '../request';
import { cutterFor } from './cutter';
import { describeStrike } from './strike-note';
import { answerResponse, faultedResponse, silentResponse } from './responses';

/** The record a report belongs to, and how many body bytes the page had of it then. */
interface Target {
  id: string | undefined;
  delivered: number;
}

export class TapBreaker {
  /** Faults are armed and not all spent: fetch-tap.ts routes fetches through `fetch` only then. */
  armed = false;
  private planner: FaultPlanner | null = null;
  private armId = '';
  private target: Target = { id: undefined, delivered: 0 };
  private readonly NetworkError: typeof TypeError;
  private readonly networkMessage: string;
  private readonly fetchMessage: string;

  constructor(
    private readonly natives: Natives,
    private readonly sink: DeltaSink,
    g: typeof globalThis,
  ) {
    this.NetworkError = g.TypeError;
    this.networkMessage = networkErrorMessage(g);
    this.fetchMessage = fetchErrorMessage(g);
  }

  /** Arms a new set (replacing what was armed) or disarms (null). */
  set(arm: FaultArm | null): void {
    const faults = (arm?.faults ?? []).flatMap((spec) => {
      const parsed = parseFaultSpec(spec);
      return parsed.ok ? [parsed.fault] : [];
    });
    this.armId = arm?.armId ?? '';
    this.planner =
      faults.length === 0
        ? null
        : new FaultPlanner(faults, { report: (report) => this.report(report), newEpoch: () => this.newEpoch() });
    this.armed = this.planner !== null;
  }

  /** One fetch while armed: the planner forwards it (maybe through a fault stream) or answers it itself. */
  fetch(nativeFetch: typeof fetch, thisArg: unknown, args: unknown[], request: RequestInfo, recordId?: string) {
    const planner = this.planner;
    const forward = (): Promise<Response> => apply(nativeFetch, thisArg, args) as Promise<Response>;
    if (!planner) return forward();
    let plan: ExchangePlan;
    try {
      plan = this.reporting({ id: recordId, delivered: 0 }, () => planner.plan(exchangeOf(request)));
    } catch {
      // A failure of the fault machinery leaves the page's fetch as it was.
      return forward();
    }
    this.armed = !planner.spent;
    const { natives } = this;
    if (plan.kind === 'respond')
      return Promise.resolve(answerResponse(natives, plan.status, plan.headers, plan.body, plan.fault));
    if (plan.kind === 'silent') return Promise.resolve(silentResponse(natives, plan.fault, request.signal));
    const stream = plan.stream;
    if (!stream) return forward();
    const cutter = cutterFor(natives, request.signal);
    const pending = apply(nativeFetch, thisArg, [args[0], cutter.init]) as Promise<Response>;
    return faultedResponse(pending, stream, natives, {
      pushing: (delivered, push) => {
        const result = this.reporting({ id: recordId, delivered }, push);
        this.armed = this.planner === planner ? !planner.spent : this.armed;
        return result;
      },
      networkError: () => new this.NetworkError(this.networkMessage),
      fetchError: () => new this.NetworkError(this.fetchMessage),
      abortNetwork: cutter.abort,
    });
  }

  private reporting<T>(target: Target, step: () => T): T {
    const before = this.target;
    this.target = target;
    try {
      return step();
    } finally {
      this.target = before;
    }
  }

  /** A strike becomes a mark on the record it struck (the panel's timeline and the capture show it). */
  private report(report: FaultReport): void {
    const { id, delivered } = this.target;
    if (id === undefined) return;
    const cutAt = report.detail['bytesForwarded'];
    const offset = report.action === 'cut' && typeof cutAt === 'number' ? cutAt : delivered;
    const mark = {
      t: this.sink.now(),
      arm: this.armId,
      fault: report.fault,
      action: report.action,
      offset,
      note: describeStrike(report),
    };
    this.sink.push({ kind: 'fault', id, mark });
  }

  private newEpoch(): string {
    return Array.from(this.natives.randomValues(new Uint8Array(4)), (b) => b.toString(16).padStart(2, '0')).join('');
  }
}

function exchangeOf(request: RequestInfo): Exchange {
  const headers = request.headers();
  const header = (name: string): string | undefined =>
    headers.find((h) => h.name.toLowerCase() === name)?.value ?? undefined;
  const sessionId = header('mcp-session-id');
  const lastEventId = header('last-event-id');
  const rpc = parseJson(request.body);
  return {
    method: request.method,
    ...(sessionId !== undefined && { sessionId }),
    ...(lastEventId !== undefined && { lastEventId }),
    ...(rpc !== undefined && { rpc }),
  };
}

function parseJson(body: string | undefined): unknown {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined; // not JSON-RPC: never struck by a request's fault
  }
}

/**
 * The message of the TypeError a body read rejects with when the connection drops mid-body: Chromium's
 * "network error", Firefox's "Error in input stream" (e2e/break-*.spec.ts compares both with a real cut).
 */
function networkErrorMessage(g: typeof globalThis): string {
  return isFirefox(g) ? 'Error in input stream' : 'network error';
}

/** The message of the TypeError fetch() rejects with when the connection fails before a response head. */
function fetchErrorMessage(g: typeof globalThis): string {
  return isFirefox(g) ? 'NetworkError when attempting to fetch resource.' : 'Failed to fetch';
}

function isFirefox(g: typeof globalThis): boolean {
  return typeof (g as { mozInnerScreenX?: unknown }).mozInnerScreenX === 'number';
}
