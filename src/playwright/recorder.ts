// Node (the test's process): the receiving side of the Playwright fixture. Puts the tap and its receiver into every
// document of a browser context (one init script) and keeps what they send, per page, as the core's capture records,
// redacted as the extension's bridge redacts them unless the user opted in.
import type { BrowserContext, Frame, Page } from '@playwright/test';
import { TOOL_NAME, type Capture } from '../core/capture/model';
import { asRecorderToNode } from '../protocol/decode-recorder';
import { RECORDER_BINDING } from '../protocol/events';
import { applyDeltas, emptyRecords, type RecordsState } from '../protocol/fold';
import type { RecorderRequest, RecorderSettings } from '../protocol/messages';
import type { ConnectionDelta } from '../protocol/records';
import { redactResponse, redactStart } from '../protocol/redact';

/** Who called the binding (Playwright's `BindingSource`, which it does not export by name). */
type BindingSource = Parameters<Parameters<BrowserContext['exposeBinding']>[1]>[0];

export interface RecorderOptions {
  /** The init script: the tap and its receiver, one self-contained script (page/init-script.ts, built). */
  initScript: string;
  /** Written into the captures' `tool.version`. */
  toolVersion: string;
  /** Keep credentials in clear at the source and in the records (the user's opt-in). */
  revealSecrets: boolean;
}

/**
 * A document replaced by a navigation that had not said hello yet when the flush was asked never answers; past this
 * the capture is taken as it stands. A live document answers within a few tasks of the page's thread.
 */
const FLUSH_TIMEOUT_MS = 5_000;

/** One document of the context: a receiver instance. */
interface Doc {
  page: Page;
  frame: Frame;
  /** The receiver's pending `next`: answering it asks the tap for a flush. */
  next?: (request: RecorderRequest) => void;
  /** Flushes asked while no `next` was pending, in order. */
  asked: number[];
  /** Flushes asked and not yet answered by the tap's marked batch. */
  waiting: Map<number, () => void>;
}

/** The recorder of one browser context: what the fixture `mcpRecorder` holds (mcpCapture and the matcher read it). */
export class ContextRecorder {
  private readonly records = new Map<Page, RecordsState>();
  private readonly docs = new Map<string, Doc>();
  private flushes = 0;
  private stopped = false;
  /** The binding and the init script, removed at stop() so the context can be recorded again (a shared context). */
  private installed: unknown[] = [];

  private constructor(private readonly options: RecorderOptions) {}

  /** Records every document of `context` from its first byte: call before the pages navigate. */
  static async start(context: BrowserContext, options: RecorderOptions): Promise<ContextRecorder> {
    const recorder = new ContextRecorder(options);
    const binding = await context.exposeBinding(RECORDER_BINDING, (source: BindingSource, message: unknown) =>
      recorder.receive(source, message),
    );
    recorder.installed = [binding, await context.addInitScript({ content: options.initScript })];
    return recorder;
  }

  /** The pages that recorded at least one connection, in the order they first did. */
  pages(): Page[] {
    return [...this.records.keys()];
  }

  /** What `page` recorded so far: every document of it asked to hand over what its tap holds first. */
  async capture(page: Page): Promise<Capture> {
    await this.flush(page);
    const state = this.records.get(page) ?? emptyRecords;
    return {
      tool: { name: TOOL_NAME, version: this.options.toolVersion },
      createdAt: Date.now(),
      ...(page.isClosed() ? {} : { page: { url: page.url() } }),
      connections: [...state.connections],
    };
  }

  /** Lets every receiver go (their pending `next` answered `stop`) and removes the binding and the init script. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const doc of this.docs.values()) doc.next?.({ kind: 'stop' });
    this.docs.clear();
    // An older Playwright returns nothing to dispose: the context then keeps them until it closes.
    for (const installed of this.installed.splice(0)) await disposeOf(installed)?.();
  }

  private receive(
    source: BindingSource,
    value: unknown,
  ): RecorderSettings | RecorderRequest | undefined | Promise<RecorderRequest> {
    const message = asRecorderToNode(value);
    if (!message) return undefined;
    if (message.kind === 'hello') {
      // A frame holds one document at a time: the one this replaces will never answer again.
      for (const [instance, doc] of this.docs) if (doc.frame === source.frame) this.forget(instance, doc);
      const doc: Doc = { page: source.page, frame: source.frame, asked: [], waiting: new Map() };
      if (!this.stopped) this.docs.set(message.instance, doc);
      return { revealSecrets: this.options.revealSecrets };
    }
    const doc = this.docs.get(message.instance);
    if (message.kind === 'next') {
      const asked = doc?.asked.shift();
      if (!doc || this.stopped) return { kind: 'stop' };
      if (asked !== undefined) return { kind: 'flush', flush: asked };
      return new Promise((resolve) => (doc.next = resolve));
    }
    if (!doc) return undefined;
    this.keep(doc.page, message.deltas);
    if (message.flushed !== undefined) {
      doc.waiting.get(message.flushed)?.();
      doc.waiting.delete(message.flushed);
    }
    return undefined;
  }

  private keep(page: Page, deltas: readonly ConnectionDelta[]): void {
    const kept = this.options.revealSecrets ? deltas : deltas.map(redactDelta);
    this.records.set(page, applyDeltas(this.records.get(page) ?? emptyRecords, kept));
  }

  /** Asks each live document of `page` for what its tap holds, and waits for the marked batches. */
  private async flush(page: Page): Promise<void> {
    if (page.isClosed()) return;
    const answers: Promise<void>[] = [];
    for (const [instance, doc] of this.docs) {
      if (doc.page !== page) continue;
      if (doc.frame.isDetached()) {
        this.forget(instance, doc);
        continue;
      }
      const flush = ++this.flushes;
      answers.push(new Promise((resolve) => doc.waiting.set(flush, resolve)));
      const next = doc.next;
      doc.next = undefined;
      if (next) next({ kind: 'flush', flush });
      else doc.asked.push(flush);
    }
    if (answers.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    let closed: ((page: Page) => void) | undefined;
    await Promise.race([
      Promise.all(answers),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_TIMEOUT_MS))),
      new Promise<void>((resolve) => page.once('close', (closed = () => resolve()))),
    ]);
    clearTimeout(timer);
    if (closed) page.off('close', closed);
    // Whatever did not answer in that time is gone: it will never send again.
    for (const [instance, doc] of this.docs) if (doc.page === page && doc.waiting.size > 0) this.forget(instance, doc);
  }

  private forget(instance: string, doc: Doc): void {
    for (const done of doc.waiting.values()) done();
    doc.waiting.clear();
    this.docs.delete(instance);
  }
}

function disposeOf(value: unknown): (() => Promise<void>) | undefined {
  const dispose = (value as { dispose?: unknown } | undefined)?.dispose;
  return typeof dispose === 'function' ? () => (dispose as () => Promise<void>).call(value) : undefined;
}

function redactDelta(delta: ConnectionDelta): ConnectionDelta {
  if (delta.kind === 'start') return { kind: 'start', conn: redactStart(delta.conn) };
  return delta.kind === 'response' ? redactResponse(delta) : delta;
}
