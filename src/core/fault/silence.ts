// Runs anywhere (pure core): which response streams the silence faults (buffer, stall, idle-cut) strike, and their
// reports. Planned with the exchange, claimed only once its head shows an event stream (a JSON answer leaves them
// armed); buffer and stall strike requests of their method; idle-cut too, or with `@every` and no `,method=` every
// event stream but initialize's (POST answers, the standalone GET, resumes), as an intermediary's idle timeout does.
import type { Fault, SilenceFault } from './fault';
import { isSilenceFault } from './fault';
import type { Pacing } from './pacing';
import { cutDetail, type FaultReport, type ReportDetail } from './report';
import { matches, rpcTarget } from './rpc';
import type { CutInfo } from './sse-tap';

/** A fault of the plan, with how often it struck and whether a response still streaming holds it. */
export interface Armed {
  fault: Fault;
  struck: number;
  inFlight: boolean;
}

/** What the silence faults read of an exchange (the planner's Exchange). */
export interface StreamRequest {
  method: string;
  sessionId?: string;
  lastEventId?: string;
  rpc?: unknown;
}

export interface SilenceContext {
  report(report: FaultReport): void;
  /** An idle cut struck: it counts as a cut (the resume faults strike its session's resumes). */
  cut(request: StreamRequest, info: CutInfo): void;
}

type ArmedSilence = Armed & { fault: SilenceFault };

/** The armed silence faults that may strike this exchange's response. */
export function silenceFor(ready: readonly Armed[], request: StreamRequest): ArmedSilence[] {
  return ready.filter((a): a is ArmedSilence => isSilenceFault(a.fault) && strikes(a.fault, request));
}

function strikes(fault: SilenceFault, request: StreamRequest): boolean {
  if (request.method === 'POST' && request.rpc !== undefined && matches(request.rpc, fault.match)) return true;
  return fault.kind === 'idle-cut' && fault.anyStream && rpcTarget(request.rpc).method !== 'initialize';
}

/** At the response head: the first free fault of each kind takes the response (undefined: none is free). */
export function claimPacing(
  candidates: readonly ArmedSilence[],
  request: StreamRequest,
  context: SilenceContext,
): Pacing | undefined {
  const free = (kind: SilenceFault['kind']): ArmedSilence | undefined =>
    candidates.find((a) => a.fault.kind === kind && (a.fault.every || (a.struck === 0 && !a.inFlight)));
  const buffer = free('buffer');
  const stall = free('stall');
  const idle = free('idle-cut');
  if (!buffer && !stall && !idle) return undefined;
  const where = target(request);
  const report = (armed: Armed, action: string, detail: ReportDetail): void =>
    context.report({ fault: armed.fault.spec, action, detail: { ...where, ...detail } });
  const pacing: Pacing = {};
  if (buffer?.fault.kind === 'buffer') {
    // A buffer strikes the response it takes, whatever comes of it: it reports what it held at the end.
    buffer.struck += 1;
    const holdHead = buffer.fault.holdHead;
    pacing.buffer = {
      holdHead,
      done: (held) => report(buffer, 'buffer', { head: holdHead ? 'held' : 'sent', ...held }),
    };
  }
  if (stall?.fault.kind === 'stall') {
    const { ms } = stall.fault;
    stall.inFlight = true;
    pacing.stall = {
      ms,
      struck: (at) => {
        stall.struck += 1;
        report(stall, 'stall', { ms, ...at });
      },
      missed: () => void (stall.inFlight = false),
    };
  }
  if (idle?.fault.kind === 'idle-cut') {
    const { ms } = idle.fault;
    idle.inFlight = true;
    pacing.idle = {
      ms,
      struck: (info) => {
        idle.struck += 1;
        idle.inFlight = false;
        context.cut(request, info);
        report(idle, 'idle-cut', { idleMs: ms, ...cutDetail(info) });
      },
      missed: () => void (idle.inFlight = false),
    };
  }
  return pacing;
}

/** The struck response in a report's words: the request's method and tool, or which GET stream it is. */
function target(request: StreamRequest): ReportDetail {
  const { method, tool } = rpcTarget(request.rpc);
  const stream = request.method !== 'GET' ? method : request.lastEventId === undefined ? 'GET' : 'GET resume';
  return {
    method: stream,
    ...(tool !== undefined && { tool }),
    sessionId: request.sessionId ?? null,
    ...(request.lastEventId !== undefined && { lastEventId: request.lastEventId }),
  };
}
