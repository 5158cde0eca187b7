// Node (Playwright): the JS peers of `npm start -- --headless`, run as the script runs them (runPeersHeadless, in
// headless Chromium with the built extension): one line per peer with what its client got and the panel's findings,
// clean peers without errors or warnings, the LLM stream listed apart and judged not at all.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DIST_CHROME } from './fixtures/extension';
import { PEER_NAMES, runPeersHeadless } from './lab/peers/headless';
import { CHAT_WORDS } from './lab/proxy/chat-completions';
import { type Lab, startLab } from './lab/start-lab';
import { type ChromiumSession, launchChromium } from './launcher';

let lab: Lab;
let session: ChromiumSession;
let pageDir: string;
let capturesDir: string;

test.beforeAll(async () => {
  // A page build of our own: another spec may be building dist/lab at the same moment.
  pageDir = mkdtempSync(join(tmpdir(), 'mcp-lab-page-'));
  capturesDir = mkdtempSync(join(tmpdir(), 'mcp-peer-captures-'));
  lab = await startLab({ build: 'always', pageDir });
  session = await launchChromium({ extension: DIST_CHROME });
});

test.afterAll(async () => {
  const report = await session?.close();
  await lab?.close();
  rmSync(pageDir, { recursive: true, force: true });
  rmSync(capturesDir, { recursive: true, force: true });
  expect(report?.violations ?? []).toEqual([]);
});

test('npm start -- --headless runs every JS peer: one line each, as expected', async () => {
  const lines: string[] = [];
  const outcomes = await runPeersHeadless(session, lab, [], {
    capturesDir,
    root: capturesDir,
    say: (l) => lines.push(l),
  });
  expect(outcomes.map((o) => o.peer)).toEqual([...PEER_NAMES]);
  for (const outcome of outcomes) expect(outcome.problems, outcome.peer).toEqual([]);
  expect(lines[0]).toBe('JS peers (the lab page in this Chromium, the panel open on it):');
  expect(lines.slice(1)).toHaveLength(PEER_NAMES.length);
  const [useMcp, aiSdk, everything, chat] = lines.slice(1);
  // use-mcp's only finding is the one its SDK 1.x transport earns on this server (it resumes a stream answered
  // -32601); how many resumes land before the unmount depends on the SDK's delay, so the count is not asserted.
  expect(useMcp).toMatch(
    /^ {2}use-mcp: client ready, \d+ tools, "stream_progress finished 3 steps[^"]*", findings resume-after-answer \(warning\)( ×\d+)? · as expected$/,
  );
  expect(aiSdk).toMatch(/^ {2}ai-sdk-mcp: client \d+ tools, ".+", findings version-fallback \(info\) · as expected$/);
  expect(everything).toMatch(
    /^ {2}server-everything: client \d+ tools, progress 1,2,3, ".+", findings none · as expected$/,
  );
  expect(chat).toBe(`  ai-chat: client LLM "${CHAT_WORDS.join('')}", tool ok, findings none · as expected`);
  // The chat turn's completion is in the export, listed apart by the core, in no session.
  const turn = outcomes[3];
  expect(turn?.otherStreams.map((s) => s.path)).toEqual(['/v1/chat/completions']);
  expect(turn?.core).toEqual([]);
});

test('peer names select peers, and scenario names alone run none', async () => {
  const lines: string[] = [];
  const say = (l: string): void => void lines.push(l);
  expect(await runPeersHeadless(session, lab, ['clean', 'v2-clean'], { capturesDir, root: capturesDir, say })).toEqual(
    [],
  );
  expect(lines).toEqual([]);
  const outcomes = await runPeersHeadless(session, lab, ['clean', 'ai-chat'], { capturesDir, root: capturesDir, say });
  expect(outcomes.map((o) => [o.peer, o.problems])).toEqual([['ai-chat', []]]);
  expect(lines).toHaveLength(2);
});
