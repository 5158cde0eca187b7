// Runs anywhere (pure core): what an SSE frame carries, in the terms faults are written in.
import type { Frame } from './sse-framer';

export type FrameKind =
  'comment' | 'priming' | 'progress' | 'elicitation' | 'server-request' | 'notification' | 'response' | 'other';

function kindOfMessage(message: unknown): FrameKind {
  if (typeof message !== 'object' || message === null) return 'other';
  const record = message as Record<string, unknown>;
  const method = record['method'];
  if (typeof method === 'string') {
    if ('id' in record) return method === 'elicitation/create' ? 'elicitation' : 'server-request';
    return method === 'notifications/progress' ? 'progress' : 'notification';
  }
  return 'result' in record || 'error' in record ? 'response' : 'other';
}

/** Only the head of a big data value is kept: recognize a response or a method by its start. */
function kindOfHead(head: string): FrameKind {
  const start = head.slice(0, 256);
  const method = /"method":"([^"]+)"/.exec(start)?.[1];
  if (method) return kindOfMessage({ method, ...(/"id":/.test(start) ? { id: 0 } : {}) });
  return /"(result|error)":/.test(start) ? 'response' : 'other';
}

export function classifyFrame(frame: Frame): FrameKind {
  if (!frame.isEvent) return 'comment';
  if (!frame.hasData || frame.dataHead === '') return frame.id !== undefined ? 'priming' : 'other';
  if (frame.dataTruncated) return kindOfHead(frame.dataHead);
  try {
    return kindOfMessage(JSON.parse(frame.dataHead));
  } catch {
    return 'other';
  }
}
