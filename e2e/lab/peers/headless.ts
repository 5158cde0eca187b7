// Node (`npm start -- --headless`): the JS peers after the browser scenario table, in the same headless Chromium with
// the built extension: the lab page's use-mcp, @ai-sdk/mcp, the official SDK client against server-everything, and the
// AI-chat turn. Each runs with the panel open on the page; the panel's findings are read once it has caught up, the
// capture is exported and the core analyses it again. One line per peer; `judgePeer` (pure) says what counts as broken.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Page } from '@playwright/test';
import { analyze, parseCapture } from '../../../src/core/index';
import type { LabPageApi } from '../client/main';
import { findTabId, panelUrl } from '../../fixtures/extension';
import { panelCaughtUp, readPanelProgress } from '../../fixtures/panel-view';
import type { ChromiumSession } from '../../launcher';
import type { Lab } from '../start-lab';
import { startEverything } from './everything';

export const PEER_NAMES = ['use-mcp', 'ai-sdk-mcp', 'server-everything', 'ai-chat'] as const;
export type PeerName = (typeof PEER_NAMES)[number];

/** A finding as the panel lists it. */
export interface ShownFinding {
  rule: string;
  severity: string;
}

/** What a peer's run left behind: the client's own account, the panel's findings and the core's on the export. */
export interface PeerEvidence {
  /** What the client got, in a few words ("3 tools, ..."). */
  client: string;
  /** The client's error, when it failed. */
  clientError?: string;
  panel: ShownFinding[];
  /** The core's findings on the exported capture, with the connection each one names. */
  core: (ShownFinding & { connectionId?: string })[];
  /** The exported capture's streams the core did not judge as MCP (LLM completions), by URL path. */
  otherStreams: { connectionId: string; path: string }[];
  /** Connection ids that the core put into an MCP session. */
  sessionConnections: string[];
}

export interface PeerOutcome extends PeerEvidence {
  peer: PeerName;
  capture?: string;
  /** Why the run counts as broken; empty when it is as expected. */
  problems: string[];
}

/** What each peer's clean run may show: the warnings it must show (a real finding on a real client) and the infos. */
interface PeerExpectation {
  /** Error or warning rules this peer's run is known to show, and must show; any other error or warning is broken. */
  mustWarn: readonly string[];
  /** Info rules it must show. */
  mustInfo: readonly string[];
  /** A path whose stream is not MCP: it must be listed apart and never be part of a finding or a session. */
  notMcpPath?: string;
}

const EXPECTATIONS: Record<PeerName, PeerExpectation> = {
  // The lab server has no resources or prompts: the hook's resources/list gets -32601 and the SDK 1.x transport
  // under it resumes that finished stream, a true finding about the client (docs/rules/resume-after-answer).
  'use-mcp': { mustWarn: ['resume-after-answer'], mustInfo: [] },
  // Its refused 2026-07-28 probe and fallback are one session, said as info.
  'ai-sdk-mcp': { mustWarn: [], mustInfo: ['version-fallback'] },
  'server-everything': { mustWarn: [], mustInfo: [] },
  'ai-chat': { mustWarn: [], mustInfo: [], notMcpPath: '/v1/chat/completions' },
};

const isLoud = (f: ShownFinding): boolean => f.severity === 'error' || f.severity === 'warning';
const rulesOf = (findings: readonly ShownFinding[]): string[] => [...new Set(findings.map((f) => f.rule))].sort();

/** Why a peer's run is broken (empty: as expected). A clean peer broken by any error or warning it was not known for. */
export function judgePeer(peer: PeerName, evidence: PeerEvidence): string[] {
  const expected = EXPECTATIONS[peer];
  const problems: string[] = [];
  if (evidence.clientError !== undefined) problems.push(`the client failed: ${evidence.clientError}`);
  const panelRules = rulesOf(evidence.panel);
  const coreRules = rulesOf(evidence.core);
  if (panelRules.join() !== coreRules.join())
    problems.push(`the core on the export found ${coreRules.join(', ') || 'none'}`);
  const unexpected = rulesOf(evidence.panel.filter((f) => isLoud(f) && !expected.mustWarn.includes(f.rule)));
  if (unexpected.length) problems.push(`unexpected ${unexpected.join(', ')}`);
  const missing = [...expected.mustWarn, ...expected.mustInfo].filter((rule) => !panelRules.includes(rule));
  if (missing.length) problems.push(`missing ${missing.join(', ')}`);
  if (expected.notMcpPath !== undefined) {
    const others = evidence.otherStreams.filter((s) => s.path === expected.notMcpPath).map((s) => s.connectionId);
    if (others.length === 0) problems.push(`${expected.notMcpPath} is not listed under other streams`);
    const judged = evidence.core.filter((f) => f.connectionId !== undefined && others.includes(f.connectionId));
    if (judged.length) problems.push(`the LLM stream got MCP findings: ${rulesOf(judged).join(', ')}`);
    if (evidence.sessionConnections.some((id) => others.includes(id)))
      problems.push('the LLM stream was put into an MCP session');
  }
  return problems;
}

function describeFindings(findings: readonly ShownFinding[]): string {
  if (findings.length === 0) return 'none';
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(`${f.rule} (${f.severity})`, (counts.get(`${f.rule} (${f.severity})`) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, n]) => (n > 1 ? `${name} ×${n}` : name))
    .join(', ');
}

/** The line `npm start -- --headless` prints for a peer: peer, what the client got, the rules the panel reported. */
export function peerLine(outcome: PeerOutcome): string {
  const verdict = outcome.problems.length ? `NOT AS EXPECTED: ${outcome.problems.join('; ')}` : 'as expected';
  return `  ${outcome.peer}: client ${outcome.client}, findings ${describeFindings(outcome.panel)} · ${verdict}`;
}

/** Opens the panel page attached to the tab showing `url` (tabId -1 first: attached to nothing, a place to ask). */
export async function openPanelFor(session: ChromiumSession, url: string): Promise<Page> {
  const panel = await session.context.newPage();
  const base = `chrome-extension://${session.extensionId}/`;
  await panel.goto(panelUrl(base, -1));
  await panel.goto(panelUrl(base, await findTabId(panel, url)));
  return panel;
}

export async function exportCapture(panel: Page, file: string): Promise<void> {
  const [download] = await Promise.all([
    panel.waitForEvent('download'),
    panel.locator('[data-testid=export-capture]').click(),
  ]);
  await download.saveAs(file);
}

type LabWindow = { __lab: LabPageApi };

/** Runs the peer's client in the page; resolves to what it got, in a few words, and its error if it failed. */
async function runClient(peer: PeerName, page: Page): Promise<{ client: string; clientError?: string }> {
  const failed = (error: string | undefined): { clientError?: string } =>
    error === undefined ? {} : { clientError: error };
  switch (peer) {
    case 'use-mcp': {
      const run = await page.evaluate(() => (window as unknown as LabWindow).__lab.useMcp());
      return { client: `${run.state}, ${run.tools.length} tools, "${run.text}"`, ...failed(run.error) };
    }
    case 'ai-sdk-mcp': {
      const run = await page.evaluate(() => (window as unknown as LabWindow).__lab.aiSdk());
      return { client: `${run.tools.length} tools, "${run.text}"`, ...failed(run.error) };
    }
    case 'server-everything': {
      const everything = await startEverything();
      try {
        const run = await page.evaluate((url) => (window as unknown as LabWindow).__lab.peer(url), everything.url);
        return {
          client: `${run.tools.length} tools, progress ${run.progress.join(',') || 'none'}, "${run.text}"`,
          ...failed(run.error),
        };
      } finally {
        await everything.close();
      }
    }
    case 'ai-chat': {
      const turn = await page.evaluate(() => (window as unknown as LabWindow).__lab.chat());
      return {
        client: `LLM "${turn.answer}", tool ${turn.tool.verdict}`,
        ...failed(turn.tool.verdict === 'ok' ? undefined : turn.tool.detail),
      };
    }
  }
}

/** What the core makes of the exported capture: its findings, the other streams, the connections in sessions. */
function coreEvidence(file: string): Pick<PeerEvidence, 'core' | 'otherStreams' | 'sessionConnections'> {
  const analysis = analyze(parseCapture(readFileSync(file, 'utf8')));
  return {
    core: analysis.findings.map((f) => ({
      rule: f.rule,
      severity: f.severity,
      ...(f.connectionId === undefined ? {} : { connectionId: f.connectionId }),
    })),
    otherStreams: analysis.otherStreams.map((s) => ({ connectionId: s.connectionId, path: new URL(s.url).pathname })),
    sessionConnections: analysis.sessions.flatMap((s) => s.connectionIds),
  };
}

async function runPeer(
  session: ChromiumSession,
  lab: Lab,
  peer: PeerName,
  capturesDir: string,
  root: string,
): Promise<PeerOutcome> {
  const pageUrl = `${lab.url}/?peer=${peer}`;
  const page = await session.context.newPage();
  let panel: Page | undefined;
  try {
    await page.goto(pageUrl);
    // The panel is open while the client runs, as a user would watch it.
    panel = await openPanelFor(session, pageUrl);
    const ran = await runClient(peer, page);
    const shown = await panelCaughtUp({
      panel: () => (panel as Page).evaluate(readPanelProgress),
      page: () => page.evaluate(() => (window as unknown as LabWindow).__lab.wire()),
    });
    const file = join(capturesDir, `${peer}.json`);
    await exportCapture(panel, file);
    const evidence: PeerEvidence = { ...ran, panel: shown.findings, ...coreEvidence(file) };
    return { peer, ...evidence, capture: relative(root, file), problems: judgePeer(peer, evidence) };
  } finally {
    await panel?.close();
    await page.close();
  }
}

/**
 * Runs the peers (`only` filters by name; all when it names none of them, none when it names only other scenarios);
 * says one line each and resolves to the outcomes.
 */
export async function runPeersHeadless(
  session: ChromiumSession,
  lab: Lab,
  only: readonly string[],
  options: { capturesDir: string; root: string; say: (line: string) => void },
): Promise<PeerOutcome[]> {
  const named = PEER_NAMES.filter((name) => only.includes(name));
  if (only.length > 0 && named.length === 0) return [];
  options.say('JS peers (the lab page in this Chromium, the panel open on it):');
  const outcomes: PeerOutcome[] = [];
  for (const peer of named.length ? named : PEER_NAMES) {
    const outcome = await runPeer(session, lab, peer, options.capturesDir, options.root).catch(
      (error: unknown): PeerOutcome => ({
        peer,
        client: 'broke',
        panel: [],
        core: [],
        otherStreams: [],
        sessionConnections: [],
        problems: [`the run broke: ${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)}`],
      }),
    );
    options.say(peerLine(outcome));
    outcomes.push(outcome);
  }
  return outcomes;
}
