// Runs in Node (vitest): `mcp-stream-inspector proxy` (in-process, as the CLI runs it) with the Python SDK (mcp
// 2.3.0) on either side: in front of the Python server with the TS SDK 1.32 client, and with the Python client
// going through it, in front of the Python server and of the lab's TS SDK 1.32 server. A fault strikes; the finding
// it provokes must be printed live, as it happens, and be in the recording `analyze` reads.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { streamProgressText } from '../payload';
import { analyzedRules, RECORDINGS, startCliProxyAt, startOrigin, until } from '../proxy-run';
import { MCP_PATH } from '../server/instance';
import { runPythonClient, startPythonServer } from './peers';
import { pythonForTests } from './venv';

const TIMEOUT = 90_000;
const env = pythonForTests();
const python = env.ok ? env.python : '';

/** The head line of each live finding of `rule`: `    ⚠ warning torn-event-reconnect  p5 ended ...`. */
const findingLines = (lines: string[], rule: string) =>
  lines.filter((l) => new RegExp(`^ +\\S+ (error|warning|info) +${rule} `).test(l));

// One at a time, as python-lab.test.ts: each test starts Python processes.
describe.skipIf(!env.ok)(
  `mcp-stream-inspector proxy with the Python SDK${env.ok ? '' : ` (skipped: ${env.reason})`}`,
  () => {
    it(
      'in front of the Python server, the TS SDK 1.32 client resumes a cut stream; torn-event-reconnect is printed live',
      async () => {
        mkdirSync(RECORDINGS, { recursive: true });
        const file = join(RECORDINGS, 'python-server-132.har');
        const server = await startPythonServer(python);
        const proxy = await startCliProxyAt(server.url, ['--fault', 'cut-mid-event:40', '--record', file]);
        try {
          expect(new URL(proxy.url).pathname).toBe('/mcp');
          const client = new Client({ name: 'mcp-stream-inspector-lab-client', version: '0.1.0' });
          const transport = new StreamableHTTPClientTransport(new URL(proxy.url), {
            reconnectionOptions: {
              initialReconnectionDelay: 50,
              maxReconnectionDelay: 200,
              reconnectionDelayGrowFactor: 1,
              maxRetries: 2,
            },
          });
          await client.connect(transport);
          const args = { count: 4, delayMs: 30 };
          const result = await client.callTool({ name: 'stream_progress', arguments: args });
          expect((result.content as { text: string }[])[0]?.text).toBe(streamProgressText(args));
          await until(() => findingLines(proxy.lines(), 'torn-event-reconnect').length > 0);
          // Printed while the session is still open: live, not at the end.
          expect(findingLines(proxy.lines(), 'torn-event-reconnect')).toHaveLength(1);
          expect(proxy.lines().filter((l) => l.startsWith('fault '))).toHaveLength(1);
          await transport.terminateSession();
          await client.close();
        } finally {
          expect(await proxy.stop()).toBe(0);
          await server.close();
        }
        expect(await analyzedRules(file)).toEqual(['torn-event-reconnect']);
      },
      TIMEOUT,
    );

    it(
      'the Python client (2026-07-28) through it to the Python server: the cut call is printed live as lost',
      async () => {
        const server = await startPythonServer(python);
        const proxy = await startCliProxyAt(server.url, ['--fault', 'cut-mid-event:40']);
        try {
          const run = await runPythonClient(python, proxy.url, 'cut');
          expect(run).toMatchObject({ verdict: 'error', protocolVersion: '2026-07-28' });
          await until(() => findingLines(proxy.lines(), 'stateless-request-not-reissued').length > 0);
          expect(findingLines(proxy.lines(), 'stateless-request-not-reissued')).toHaveLength(1);
          expect(proxy.lines().filter((l) => l.startsWith('fault '))).toHaveLength(1);
        } finally {
          expect(await proxy.stop()).toBe(0);
          await server.close();
        }
      },
      TIMEOUT,
    );

    it(
      "the Python client through it to the lab's TS SDK 1.32 server: it falls back to 2025-11-25, and the cut is found",
      async () => {
        mkdirSync(RECORDINGS, { recursive: true });
        const file = join(RECORDINGS, 'python-client-132.har');
        const origin = await startOrigin('sdk-stream');
        const proxy = await startCliProxyAt(`${origin.url}${MCP_PATH}`, [
          '--fault',
          'cut-mid-event:40',
          '--record',
          file,
        ]);
        try {
          const run = await runPythonClient(python, proxy.url, 'cut');
          // The Python client in the 2025 era resumes the cut POST stream itself (GET with Last-Event-ID).
          expect(run).toMatchObject({ verdict: 'ok', protocolVersion: '2025-11-25', errors: [] });
          await until(() => findingLines(proxy.lines(), 'torn-event-reconnect').length > 0);
          expect(findingLines(proxy.lines(), 'torn-event-reconnect')).toHaveLength(1);
          // Its probe: server/discover answered 400 by the 1.32 server, then initialize.
          // Printed once and never withdrawn, though the probe joins its session only when initialize names it.
          expect(findingLines(proxy.lines(), 'version-fallback')).toHaveLength(1);
          expect(proxy.lines().filter((l) => l.includes('withdrawn version-fallback'))).toEqual([]);
          expect(
            proxy.lines().filter((l) => /^ {0,2}\d+ {2}POST {2}\/mcp {2}server\/discover {2}400 /.test(l)),
          ).toHaveLength(1);
        } finally {
          expect(await proxy.stop()).toBe(0);
          await origin.close();
        }
        expect(await analyzedRules(file)).toEqual(['torn-event-reconnect', 'version-fallback']);
      },
      TIMEOUT,
    );
  },
);
