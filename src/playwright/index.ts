// Node (the test's process): `mcp-stream-inspector/playwright`, a Playwright fixture for e2e tests of web MCP clients.
// Every page of the test's context is recorded from its first byte by the extension's own tap (an init script, no
// extension); `mcpCapture()` gives the capture so far, `expect(page).toHaveNoMcpFindings()` runs the guard rules on
// it, and a failing test gets the capture attached to its report; `mcpReplay(page, capture)` serves a recorded server
// to the page. Imports core, protocol and the replay server (src/replay), and Playwright.
import {
  expect as baseExpect,
  test as base,
  type Expect,
  type ExpectMatcherState,
  type MatcherReturnType,
  type Page,
  type PlaywrightTestArgs,
  type PlaywrightTestOptions,
  type PlaywrightWorkerArgs,
  type PlaywrightWorkerOptions,
  type TestType,
} from '@playwright/test';
import { initScript, toolVersion } from 'virtual:mcp-stream-inspector/init-script';
import { serializeCapture } from '../core/capture/format';
import type { Severity } from '../core/guard/types';
import { ContextRecorder } from './recorder';
import { attachCapture, describeFindings, failing, findingsOf } from './report';

/** Options of the fixture, set with `test.use({ ... })` or in the config's `use`. */
export interface McpOptions {
  /**
   * Record credentials (Authorization, cookies, URL secrets), session ids and body secrets as they were, in
   * `mcpCapture()`, the attached captures and the failure messages. Default false: redacted as exports are.
   */
  mcpRevealSecrets: boolean;
}

/** The fixtures this test adds to Playwright's. */
export interface McpFixtures {
  /**
   * The capture of `page` (the test's page unless given) so far: capture format v1, the JSON text that
   * `mcp-stream-inspector analyze` and the panel's Import read. Redacted unless `mcpRevealSecrets`.
   */
  mcpCapture: (page?: Page) => Promise<string>;
  /** The recorder of the test's context (auto: it starts before the test's first page). */
  mcpRecorder: ContextRecorder;
}

/** Options of {@link McpMatchers.toHaveNoMcpFindings}. */
export interface McpFindingOptions {
  /** Fail on findings of this severity or worse (default `error`, as the CLI's `--fail-on`). */
  failOn?: Severity;
}

/** The matcher this module's `expect` adds. */
export type McpMatchers = {
  /** Passes when the guard rules find nothing at or above `failOn` in what `page` has recorded so far. */
  toHaveNoMcpFindings(this: ExpectMatcherState, page: Page, options?: McpFindingOptions): Promise<MatcherReturnType>;
};

const recorders = new WeakMap<object, { recorder: ContextRecorder; revealSecrets: boolean }>();

/** Playwright's `test` with the MCP fixtures: use it in place of `@playwright/test`'s. */
export const test: TestType<
  PlaywrightTestArgs & PlaywrightTestOptions & McpOptions & McpFixtures,
  PlaywrightWorkerArgs & PlaywrightWorkerOptions
> = base.extend<McpOptions & McpFixtures>({
  mcpRevealSecrets: [false, { option: true }],
  mcpRecorder: [
    async ({ context, mcpRevealSecrets }, provide, testInfo) => {
      const revealSecrets = mcpRevealSecrets;
      const recorder = await ContextRecorder.start(context, { initScript, toolVersion, revealSecrets });
      recorders.set(context, { recorder, revealSecrets });
      await provide(recorder);
      if (testInfo.status !== 'passed' && testInfo.status !== 'skipped') {
        const pages = recorder.pages();
        for (const [i, page] of pages.entries()) {
          const capture = await recorder.capture(page);
          const name = pages.length === 1 ? 'mcp-capture.json' : `mcp-capture-page-${i + 1}.json`;
          await attachCapture(testInfo, name, capture, { revealSecrets, findings: findingsOf(capture, revealSecrets) });
        }
      }
      await recorder.stop();
      recorders.delete(context);
    },
    { auto: true },
  ],
  mcpCapture: async ({ page, mcpRecorder, mcpRevealSecrets }, provide) => {
    await provide(async (target = page) =>
      serializeCapture(await mcpRecorder.capture(target), { revealSecrets: mcpRevealSecrets }),
    );
  },
});

/** Playwright's `expect` with `toHaveNoMcpFindings`. */
export const expect: Expect<McpMatchers> = baseExpect.extend<McpMatchers>({
  async toHaveNoMcpFindings(page: Page, options: McpFindingOptions = {}) {
    const entry = recorders.get(page.context());
    if (!entry) {
      throw new Error(
        "toHaveNoMcpFindings: this page is not recorded; use `test` from 'mcp-stream-inspector/playwright' (its context is recorded from the start)",
      );
    }
    const failOn = options.failOn ?? 'error';
    const capture = await entry.recorder.capture(page);
    const findings = findingsOf(capture, entry.revealSecrets);
    const bad = failing(findings, failOn);
    const pass = bad.length === 0;
    if (!pass && !this.isNot) {
      await attachCapture(test.info(), 'mcp-capture (toHaveNoMcpFindings).json', capture, {
        revealSecrets: entry.revealSecrets,
        findings,
      });
    }
    const connections = `${capture.connections.length} recorded connection(s)`;
    const message = pass
      ? () =>
          `${this.utils.matcherHint('toHaveNoMcpFindings', 'page', '', { isNot: this.isNot })}\n\nExpected MCP findings at or above ${failOn}, found none in ${connections}.`
      : () =>
          `${this.utils.matcherHint('toHaveNoMcpFindings', 'page', '', { isNot: this.isNot })}\n\n` +
          `${bad.length} MCP finding(s) at or above ${failOn} in ${connections}:\n${describeFindings(bad)}`;
    return { pass, message, name: 'toHaveNoMcpFindings', expected: failOn, actual: bad.map((f) => f.rule) };
  },
});

export type { ContextRecorder };
export { mcpReplay, type McpReplay, type McpReplayOptions } from './replay';
export type { Divergence, DivergenceAnswer, DivergenceKind } from '../core/replay/divergence';
