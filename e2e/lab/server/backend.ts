// Runs in Node (lab server): the origin behind the proxy: one live instance at a time, replaced
// whole for a new run or by a rolling restart (a new process: new epoch, counters from 1).
import type { OriginSettings } from '../scenarios';
import { type InstanceOptions, type ServerInstance, startInstance } from './instance';

export type RestartChange = Pick<InstanceOptions, 'onUnknownCursor' | 'restoreUnknownSessions'>;

export class Backend {
  private live: ServerInstance | undefined;
  private generation = 0;
  private origin: OriginSettings = { idScheme: 'sdk-stream' };

  get current(): ServerInstance {
    if (!this.live) throw new Error('the lab origin is not started');
    return this.live;
  }

  /** A fresh instance for a new run; the previous one is closed first. */
  async reset(origin: OriginSettings): Promise<ServerInstance> {
    await this.live?.close();
    this.live = undefined;
    this.origin = origin;
    this.generation = 0;
    this.live = await this.start({});
    return this.live;
  }

  /** Starts the successor, routes to it, then lets the old instance go away. */
  async rollingRestart(change: RestartChange): Promise<{ from: ServerInstance; to: ServerInstance }> {
    const from = this.current;
    const to = await this.start({ ...change, notEpoch: from.epoch });
    this.live = to;
    await from.close();
    return { from, to };
  }

  async close(): Promise<void> {
    await this.live?.close();
    this.live = undefined;
  }

  private start(extra: Partial<InstanceOptions>): Promise<ServerInstance> {
    const name = String.fromCharCode(65 + (this.generation % 26));
    this.generation += 1;
    return startInstance({ name, origin: this.origin, ...extra });
  }
}
