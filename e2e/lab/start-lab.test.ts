// Runs in Node (vitest): startLab builds and serves the demo page on the proxy's origin, and the
// control endpoints choose scenarios and report what was applied.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lab, startLab } from './start-lab';

describe('startLab', () => {
  let lab: Lab;
  let pageDir: string;

  beforeAll(async () => {
    pageDir = await mkdtemp(join(tmpdir(), 'mcp-lab-page-'));
    lab = await startLab({ build: 'always', pageDir, scenario: 'resume-409' });
  }, 30_000);

  afterAll(async () => {
    await lab?.close();
    await rm(pageDir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 and serves the built page with its bundled script', async () => {
    expect(new URL(lab.url).hostname).toBe('127.0.0.1');
    const page = await fetch(`${lab.url}/`);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('<title>MCP fault lab</title>');
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const bundle = await fetch(`${lab.url}/${script}`);
    expect(bundle.headers.get('content-type')).toContain('text/javascript');
    expect(await bundle.text()).toContain('__lab');
  });

  it('takes the scenario from the command line options and from POST /__lab/scenario', async () => {
    expect(await (await fetch(`${lab.url}/__lab/scenario`)).json()).toEqual({ name: 'resume-409' });
    const chosen = await fetch(`${lab.url}/__lab/scenario`, {
      method: 'POST',
      body: JSON.stringify({ name: 'skip-on-resume' }),
    });
    expect(chosen.status).toBe(200);
    expect(lab.scenario().name).toBe('skip-on-resume');
    const log = (await (await fetch(`${lab.url}/__lab/log`)).json()) as {
      scenario: string;
      entries: Array<{ action: string }>;
    };
    expect(log.scenario).toBe('skip-on-resume');
    expect(log.entries.map((entry) => entry.action)).toEqual(['scenario']);
    const refused = await fetch(`${lab.url}/__lab/scenario`, {
      method: 'POST',
      body: JSON.stringify({ name: 'no-such-fault' }),
    });
    expect(refused.status).toBe(400);
    expect(lab.scenario().name).toBe('skip-on-resume');
  });

  it('answers an MCP initialize through the proxy with an SSE stream and a session id', async () => {
    await lab.setScenario('skip-on-resume'); // integer ids
    const response = await fetch(`${lab.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
      }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    const body = await response.text();
    expect(body).toMatch(/^id: 1\nretry: 150\ndata: \n\n/);
    expect(body).toContain('"protocolVersion":"2025-11-25"');
  });

  it('keeps page paths inside the page folder', async () => {
    expect((await fetch(`${lab.url}/..%2f..%2fpackage.json`)).status).toBe(404);
    expect((await fetch(`${lab.url}/%E0%A4%A`)).status).toBe(400);
  });
});
