// Runs in Node (lab proxy): a fake LLM completion stream, OpenAI-style (`chat.completion.chunk` events, then
// `data: [DONE]`), as every AI chat page streams beside its MCP session. Not MCP: the inspector must list it apart
// and judge nothing in it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../../../src/proxy/node-http';

/** The words of the answer, one delta each. */
export const CHAT_WORDS = ['The', ' forecast', ' says', ' sun', ' until', ' Friday.'];
const CHUNK_DELAY_MS = 15;

export async function answerChat(req: IncomingMessage, res: ServerResponse): Promise<void> {
  await readBody(req);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = { id: 'chatcmpl-lab', object: 'chat.completion.chunk', created: 1_795_967_688, model: 'lab-fake-llm' };
  const deltas = [{ role: 'assistant', content: '' }, ...CHAT_WORDS.map((content) => ({ content })), {}];
  for (const [index, delta] of deltas.entries()) {
    if (res.destroyed) return;
    const finish = index === deltas.length - 1 ? 'stop' : null;
    res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
    await new Promise((resolve) => setTimeout(resolve, CHUNK_DELAY_MS));
  }
  res.end('data: [DONE]\n\n');
}
