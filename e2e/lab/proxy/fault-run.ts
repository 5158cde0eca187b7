// Runs in Node (lab proxy): one scenario run of a fault: decides, exchange by exchange, what the
// proxy does, performs the after-cut action on the origin, and logs every fault it applied.
import type { Backend } from '../server/backend';
import type { ScenarioName } from '../scenarios';
import type { FaultSpec, ResumeSpec } from './fault-spec';
import { classifyFrame } from './frame-kind';
import type { Frame } from './sse-framer';
import type { CutInfo, FrameAction, TapPolicy } from './sse-tap';

export type LogDetail = Record<string, string | number | boolean | null>;

export interface LabLogEntry {
  /** ISO time the entry was made. */
  t: string;
  scenario: ScenarioName;
  action: string;
  detail: LogDetail;
}

/** What the proxy knows of a request before forwarding it. */
export interface Exchange {
  method: string;
  path: string;
  sessionId?: string;
  lastEventId?: string;
  /** The parsed JSON-RPC body of a POST. */
  rpc?: unknown;
}

export type ExchangePlan =
  | { kind: 'forward'; tap?: TapPolicy; onCut?: (info: CutInfo) => void }
  | { kind: 'respond'; status: number; headers: Record<string, string>; body: unknown };

function toolCallName(rpc: unknown): string | undefined {
  if (typeof rpc !== 'object' || rpc === null || Array.isArray(rpc)) return undefined;
  const message = rpc as { method?: unknown; params?: { name?: unknown } };
  if (message.method !== 'tools/call') return undefined;
  return typeof message.params?.name === 'string' ? message.params.name : '';
}

export class FaultRun {
  private cutAssigned = false;
  private cutSession: string | undefined;
  private lastDelivered: Frame | undefined;
  private firstResumeSeen = false;
  private afterCut: Promise<void> = Promise.resolve();

  constructor(
    readonly spec: FaultSpec,
    private readonly backend: Backend,
    private readonly log: (action: string, detail: LogDetail) => void,
  ) {}

  /** Resolves once an after-cut action (restart, session drop) has finished; requests wait for it. */
  settled(): Promise<void> {
    return this.afterCut;
  }

  plan(exchange: Exchange): ExchangePlan {
    const cut = this.spec.cut;
    const tool = toolCallName(exchange.rpc);
    if (
      cut &&
      !this.cutAssigned &&
      exchange.method === 'POST' &&
      tool !== undefined &&
      (!cut.tool || cut.tool === tool)
    ) {
      this.cutAssigned = true;
      return { kind: 'forward', tap: this.cutPolicy(), onCut: (info) => this.onCut(exchange, tool, info) };
    }
    const isResume = exchange.method === 'GET' && exchange.lastEventId !== undefined;
    if (isResume && this.cutSession !== undefined && exchange.sessionId === this.cutSession) {
      return this.resumePlan(exchange, this.spec.resume);
    }
    return { kind: 'forward' };
  }

  private cutPolicy(): TapPolicy {
    const cut = this.spec.cut;
    if (!cut) throw new Error('no cut in this fault');
    let seen = 0;
    let armed = false;
    return {
      atFrameStart: (): FrameAction =>
        armed && cut.at !== 'boundary' ? { kind: 'cut-into-data', dataBytes: cut.at.dataBytes } : { kind: 'pass' },
      onFrameEnd: (frame, delivered) => {
        if (delivered && frame.isEvent) this.lastDelivered = frame;
        if (armed || classifyFrame(frame) !== cut.after.kind) return 'continue';
        seen += 1;
        if (seen < cut.after.count) return 'continue';
        if (cut.at === 'boundary') return 'cut';
        armed = true;
        return 'continue';
      },
    };
  }

  private onCut(exchange: Exchange, tool: string, info: CutInfo): void {
    this.cutSession = exchange.sessionId;
    this.log('cut', {
      tool,
      sessionId: exchange.sessionId ?? null,
      midEvent: info.midEvent,
      frameIndex: info.frameIndex,
      bytesIntoFrame: info.bytesIntoFrame,
      bytesForwarded: info.bytesForwarded,
      tornEventId: info.tornEventId ?? null,
      lastCompleteEventId: this.lastDelivered?.id ?? null,
    });
    this.afterCut = this.runAfterCut(exchange.sessionId);
  }

  private async runAfterCut(sessionId: string | undefined): Promise<void> {
    const action = this.spec.afterCut;
    if (action.kind === 'rolling-restart') {
      const { from, to } = await this.backend.rollingRestart({
        onUnknownCursor: action.onUnknownCursor,
        restoreUnknownSessions: action.restoreSessions,
      });
      this.log('rolling-restart', {
        from: from.name,
        fromEpoch: from.epoch,
        to: to.name,
        toEpoch: to.epoch,
        onUnknownCursor: action.onUnknownCursor,
        restoreSessions: action.restoreSessions,
      });
    } else if (action.kind === 'drop-session' && sessionId !== undefined) {
      const dropped = await this.backend.current.dropSession(sessionId);
      this.log('drop-session', { sessionId, dropped, instance: this.backend.current.name });
    }
  }

  private resumePlan(exchange: Exchange, resume: ResumeSpec): ExchangePlan {
    const first = !this.firstResumeSeen;
    this.firstResumeSeen = true;
    const lastEventId = exchange.lastEventId ?? null;
    if (resume.kind === 'reject') {
      this.log('reject-resume', {
        lastEventId,
        status: resume.status,
        retryAfterSeconds: resume.retryAfterSeconds ?? null,
      });
      const headers: Record<string, string> = {};
      if (resume.retryAfterSeconds !== undefined) headers['retry-after'] = String(resume.retryAfterSeconds);
      return {
        kind: 'respond',
        status: resume.status,
        headers,
        body: { jsonrpc: '2.0', error: { code: -32000, message: resume.message }, id: null },
      };
    }
    this.log('resume-forwarded', { lastEventId, to: this.backend.current.name, first });
    if (!first) return { kind: 'forward' };
    if (resume.kind === 'repeat-last-delivered') return { kind: 'forward', tap: this.repeatPolicy() };
    if (resume.kind === 'skip-events') return { kind: 'forward', tap: this.skipPolicy(resume.count) };
    return { kind: 'forward' };
  }

  private repeatPolicy(): TapPolicy {
    const again = this.lastDelivered;
    return {
      prefix: () => {
        if (!again?.raw) return undefined;
        this.log('repeat-event', { eventId: again.id ?? null, bytes: again.raw.length });
        return again.raw;
      },
      atFrameStart: () => ({ kind: 'pass' }),
      onFrameEnd: () => 'continue',
    };
  }

  private skipPolicy(count: number): TapPolicy {
    let skipped = 0;
    return {
      atFrameStart: () => (skipped < count ? { kind: 'drop' } : { kind: 'pass' }),
      onFrameEnd: (frame, delivered) => {
        if (!delivered && frame.isEvent) {
          skipped += 1;
          this.log('skip-event', { eventId: frame.id ?? null, kind: classifyFrame(frame) });
        }
        return 'continue';
      },
    };
  }
}
