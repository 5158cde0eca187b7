// Runs in the demo page (browser): `use-mcp`, the React hook many web MCP clients are built on, against the lab
// server: mounted (on Preact's React compatibility layer, the lab build aliases `react`), it connects, the page
// calls one tool through it, then unmounts it. Another real client than the official SDK's.
import { h, render } from 'preact';
import { useEffect } from 'preact/hooks';
import { useMcp } from 'use-mcp/react';

type Mcp = ReturnType<typeof useMcp>;

export interface UseMcpRun {
  state: string;
  tools: string[];
  /** The tool result's text content. */
  text: string;
  error?: string;
}

function Probe(props: { url: string; onChange(mcp: Mcp): void }) {
  const mcp = useMcp({ url: props.url, clientName: 'lab use-mcp', transportType: 'http', autoReconnect: false });
  const { onChange } = props;
  // Told after every render: the caller waits for the first 'ready' or 'failed'.
  useEffect(() => onChange(mcp), [onChange, mcp]);
  return null;
}

/** Mounts the hook until it is ready (or failed), calls `stream_progress`, unmounts. */
export async function runUseMcp(mcpUrl: string): Promise<UseMcpRun> {
  const host = document.createElement('div');
  document.body.append(host);
  try {
    const mcp = await new Promise<Mcp>((resolve) => {
      render(
        h(Probe, {
          url: mcpUrl,
          onChange: (m) => {
            if (m.state === 'ready' || m.state === 'failed') resolve(m);
          },
        }),
        host,
      );
    });
    const tools = mcp.tools.map((t) => t.name).sort();
    if (mcp.state !== 'ready') return { state: mcp.state, tools, text: '', error: mcp.error ?? 'failed' };
    const result = (await mcp.callTool('stream_progress', { count: 3, delayMs: 40 })) as { content?: unknown };
    const content = Array.isArray(result.content) ? (result.content as { type?: unknown; text?: unknown }[]) : [];
    const text = content.flatMap((c) => (c.type === 'text' && typeof c.text === 'string' ? [c.text] : [])).join('');
    return { state: mcp.state, tools, text };
  } catch (error) {
    return { state: 'failed', tools: [], text: '', error: error instanceof Error ? error.message : String(error) };
  } finally {
    render(null, host);
    host.remove();
  }
}
