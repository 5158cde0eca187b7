// Runs in Node (lab server): the MCP server each lab session gets, with the lab tools.
// Tool answers come from ../payload so the client can check them byte for byte.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { askUserDeclinedText, askUserText, bigResultText, streamProgressText } from '../payload';

export const LAB_SERVER_INFO = { name: 'mcp-stream-inspector-lab', version: '0.1.0' };

/** Resolves after `ms`, or rejects when `signal` aborts (the request was cancelled or the instance closed). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error('aborted'));
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** One signal that aborts with either of two. */
function either(a: AbortSignal, b: AbortSignal): AbortSignal {
  return AbortSignal.any([a, b]);
}

/** A fresh McpServer for one session; `shutdown` aborts every running tool when the instance closes. */
export function createLabServer(shutdown: AbortSignal): McpServer {
  const server = new McpServer(LAB_SERVER_INFO, { capabilities: { logging: {} } });

  server.registerTool(
    'stream_progress',
    {
      description:
        'Sends `count` progress notifications `delayMs` apart, then a text result; closes its stream after `closeStreamAfter` of them (polling).',
      inputSchema: {
        count: z.number().int().min(1).max(10_000),
        delayMs: z.number().int().min(0).max(60_000),
        closeStreamAfter: z.number().int().min(1).optional(),
      },
    },
    async ({ count, delayMs, closeStreamAfter }, extra) => {
      const signal = either(extra.signal, shutdown);
      const progressToken = extra._meta?.progressToken;
      for (let step = 1; step <= count; step++) {
        await sleep(delayMs, signal);
        if (progressToken !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: step, total: count, message: `step ${step}` },
          });
        }
        // The SDK server ends the response stream; what follows goes to its event store for the client's resume.
        if (step === closeStreamAfter) extra.closeSSEStream?.();
      }
      return { content: [{ type: 'text', text: streamProgressText({ count, delayMs }) }] };
    },
  );

  server.registerTool(
    'big_result',
    {
      description: 'Returns a text result of exactly `sizeBytes` bytes, after `progressSteps` progress notifications.',
      inputSchema: {
        sizeBytes: z
          .number()
          .int()
          .min(1)
          .max(64 * 1024 * 1024),
        progressSteps: z.number().int().min(0).max(1000).optional(),
      },
    },
    async ({ sizeBytes, progressSteps = 0 }, extra) => {
      const signal = either(extra.signal, shutdown);
      const progressToken = extra._meta?.progressToken;
      for (let step = 1; step <= progressSteps; step++) {
        await sleep(20, signal);
        if (progressToken !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: step, total: progressSteps + 1, message: `preparing ${step}` },
          });
        }
      }
      return { content: [{ type: 'text', text: bigResultText(sizeBytes) }] };
    },
  );

  server.registerTool(
    'consent_required',
    {
      description: 'Needs the user to visit `url` first: answers a JSON-RPC error -32042 (URL elicitation required).',
      inputSchema: { url: z.string().url() },
    },
    ({ url }) => {
      // McpServer turns other throws into an isError result; this one it passes on as the JSON-RPC error.
      throw new UrlElicitationRequiredError([
        { mode: 'url', message: 'Sign in to continue', url, elicitationId: 'lab-consent-1' },
      ]);
    },
  );

  server.registerTool(
    'ask_user',
    {
      description: 'Asks the client a question (elicitation) and returns the answer.',
      inputSchema: { question: z.string().min(1).max(1000) },
    },
    async ({ question }, extra) => {
      const result = await server.server.elicitInput(
        {
          mode: 'form',
          message: question,
          requestedSchema: {
            type: 'object',
            properties: { answer: { type: 'string', title: 'Answer' } },
            required: ['answer'],
          },
        },
        { relatedRequestId: extra.requestId, signal: either(extra.signal, shutdown), timeout: 30_000 },
      );
      const answer = result.content?.['answer'];
      const text =
        result.action === 'accept' && typeof answer === 'string'
          ? askUserText(answer)
          : askUserDeclinedText(result.action);
      return { content: [{ type: 'text', text }] };
    },
  );

  return server;
}
