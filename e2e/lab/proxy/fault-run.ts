// Runs in Node (lab proxy): one scenario run of a fault: the product's fault planner decides, exchange by exchange,
// what the proxy does; this adds the lab's own part (the after-cut action on the origin) and logs every fault applied.
import { randomBytes } from 'node:crypto';
import { type Exchange, type ExchangePlan, FaultPlanner } from '../../../src/core/fault/planner';
import type { Backend } from '../server/backend';
import type { ScenarioName } from '../scenarios';
import type { FaultSpec } from './fault-spec';

export type LogDetail = Record<string, string | number | boolean | null>;

export interface LabLogEntry {
  /** ISO time the entry was made. */
  t: string;
  scenario: ScenarioName;
  action: string;
  detail: LogDetail;
}

export class FaultRun {
  private readonly planner: FaultPlanner;
  private firstResumeSeen = false;
  private afterCut: Promise<void> = Promise.resolve();
  /** Reports made while an exchange is planned, held so the log says `resume-forwarded` before what it did. */
  private held: [string, LogDetail][] | undefined;

  constructor(
    readonly spec: FaultSpec,
    private readonly backend: Backend,
    private readonly log: (action: string, detail: LogDetail) => void,
  ) {
    this.planner = new FaultPlanner(spec.faults, {
      report: (report) => {
        if (this.held) this.held.push([report.action, report.detail]);
        else this.log(report.action, report.detail);
      },
      newEpoch: () => randomBytes(3).toString('hex'),
      onCut: (exchange) => {
        this.afterCut = this.runAfterCut(exchange.sessionId);
      },
    });
  }

  /** Waits for an after-cut action (restart, session drop) to finish, then plans the exchange. */
  async plan(exchange: Exchange): Promise<ExchangePlan> {
    await this.afterCut;
    const cutSession = this.planner.cutSessionId;
    this.held = [];
    const plan = this.planner.plan(exchange);
    const held = this.held;
    this.held = undefined;
    const isResume = exchange.method === 'GET' && exchange.lastEventId !== undefined;
    if (isResume && cutSession !== undefined && exchange.sessionId === cutSession && plan.kind === 'forward') {
      this.log('resume-forwarded', {
        lastEventId: exchange.lastEventId ?? null,
        to: this.backend.current.name,
        first: !this.firstResumeSeen,
      });
      this.firstResumeSeen = true;
    }
    for (const [action, detail] of held) this.log(action, detail);
    return plan;
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
}
