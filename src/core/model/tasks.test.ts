import { describe, expect, it } from 'vitest';
import { rpc, sseEvent, Transcript } from '../guard/transcript';
import { buildModel } from './build';

const ERA = '2026-07-28';
const handle = (id: number, taskId: string) =>
  rpc.result(id, { resultType: 'task', taskId, status: 'working', ttlMs: 60000, pollIntervalMs: 100 });
const poll = (id: number, method: string, taskId: string) => rpc.request(id, method, { taskId });

describe('task follow-ups', () => {
  it('link tasks/get polls, tasks/update and tasks/cancel to the request whose answer created the task', () => {
    const t = new Transcript();
    const create = t.exchange(
      { body: rpc.request(1, 'tools/call', { name: 'build', arguments: {} }), json: handle(1, 'T1') },
      undefined,
      ERA,
    );
    const other = t.exchange(
      {
        body: rpc.request(2, 'tools/call', { name: 'lint', arguments: {} }),
        sse: [sseEvent(undefined, handle(2, 'T2'))],
      },
      undefined,
      ERA,
    );
    const get1 = t.exchange({ body: poll(3, 'tasks/get', 'T1'), json: handle(3, 'T1') }, undefined, ERA);
    const update = t.exchange({ body: poll(4, 'tasks/update', 'T2'), json: rpc.result(4) }, undefined, ERA);
    const get2 = t.exchange(
      {
        body: poll(5, 'tasks/get', 'T1'),
        json: rpc.result(5, { resultType: 'task', taskId: 'T1', status: 'completed' }),
      },
      undefined,
      ERA,
    );
    const cancel = t.exchange({ body: poll(6, 'tasks/cancel', 'T2'), json: rpc.result(6) }, undefined, ERA);
    const links = buildModel(t.capture()).connections.map((c) => [c.id, c.taskOf]);
    expect(links).toEqual([
      [create, undefined],
      [other, undefined],
      [get1, create],
      [update, other],
      [get2, create],
      [cancel, other],
    ]);
  });

  it('link 2025-11-25 tasks/result to the CreateTaskResult {task: {taskId}} in a session', () => {
    const t = new Transcript();
    const create = t.exchange(
      {
        body: rpc.request(1, 'tools/call', { name: 'build', arguments: {}, task: { ttl: 60000 } }),
        json: rpc.result(1, { task: { taskId: 'T9', status: 'working' } }),
      },
      'S1',
      '2025-11-25',
    );
    const result = t.exchange({ body: poll(2, 'tasks/result', 'T9'), json: rpc.result(2) }, 'S1', '2025-11-25');
    const model = buildModel(t.capture());
    expect(model.connections.find((c) => c.id === result)?.taskOf).toBe(create);
  });

  it('link nothing for an unknown task, a poll before the task was created, or a task id that is no string', () => {
    const t = new Transcript();
    t.exchange({ body: poll(1, 'tasks/get', 'T1'), json: rpc.result(1) }, undefined, ERA);
    t.exchange(
      { body: rpc.request(2, 'tools/call', { name: 'build', arguments: {} }), json: handle(2, 'T1') },
      undefined,
      ERA,
    );
    t.exchange({ body: poll(3, 'tasks/get', 'T7'), json: rpc.result(3) }, undefined, ERA);
    t.exchange({ body: rpc.request(4, 'tasks/get', { taskId: 1 }), json: rpc.result(4) }, undefined, ERA);
    t.exchange(
      { body: rpc.request(5, 'tools/call', { name: 'x' }), json: rpc.result(5, { resultType: 'complete' }) },
      undefined,
      ERA,
    );
    expect(buildModel(t.capture()).connections.filter((c) => c.taskOf !== undefined)).toEqual([]);
  });
});
