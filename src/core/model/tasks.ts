// Runs anywhere (pure core): MCP Tasks, each follow-up request linked to the request that created its task. A
// server answers a request with a task handle (2026-07-28 `resultType: "task"` with `taskId`, SEP-2663; 2025-11-25
// `CreateTaskResult` `{task: {taskId}}`), and the client then polls `tasks/get`, answers with `tasks/update`,
// cancels with `tasks/cancel` or (2025-11-25) blocks on `tasks/result`, each naming `params.taskId`.
import type { JsonRpcMessage } from '../mcp/types';
import type { ParsedConnection } from './connection';
import { answerTo, paramsField, resultField } from './sessions';

/** The requests that carry a task id in `params.taskId` and so follow a task up. */
const FOLLOW_UPS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel', 'tasks/result']);

function soleRequest(conn: ParsedConnection): JsonRpcMessage | undefined {
  const [message] = conn.requestMessages;
  if (conn.requestMessages.length !== 1 || message?.kind !== 'request' || message.method === undefined)
    return undefined;
  return message;
}

function followedTask(message: JsonRpcMessage): string | undefined {
  if (!FOLLOW_UPS.has(message.method ?? '')) return undefined;
  const taskId = paramsField(message.value, 'taskId');
  return typeof taskId === 'string' ? taskId : undefined;
}

/** The task id a response hands out, in either era's shape; undefined when it is no task handle. */
function createdTask(answer: JsonRpcMessage | undefined): string | undefined {
  const value = answer?.value;
  if (resultField(value, 'resultType') === 'task') {
    const taskId = resultField(value, 'taskId');
    if (typeof taskId === 'string') return taskId;
  }
  const task = resultField(value, 'task') as { taskId?: unknown } | undefined;
  return typeof task === 'object' && task !== null && typeof task.taskId === 'string' ? task.taskId : undefined;
}

/**
 * For each connection (in time order) whose request follows a task up, the index of the latest earlier connection
 * whose answer created that task. Reads answers only when some request follows a task up, and then only answers
 * of requests that are not follow-ups themselves (a tasks/get answer restates the task; it creates none).
 */
export function taskFollowUps(connections: readonly ParsedConnection[]): Map<number, number> {
  const links = new Map<number, number>();
  const requests = connections.map(soleRequest);
  if (!requests.some((m) => m !== undefined && followedTask(m) !== undefined)) return links;
  const creators = new Map<string, number>();
  for (const [index, message] of requests.entries()) {
    if (!message) continue;
    const followed = followedTask(message);
    if (followed !== undefined) {
      const creator = creators.get(followed);
      if (creator !== undefined) links.set(index, creator);
      continue;
    }
    if (message.method?.startsWith('tasks/')) continue;
    const created = createdTask(answerTo(connections[index] as ParsedConnection, message));
    if (created !== undefined) creators.set(created, index);
  }
  return links;
}
