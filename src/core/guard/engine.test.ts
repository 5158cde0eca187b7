import { describe, expect, it } from 'vitest';
import { buildModel } from '../model/build';
import { runRules } from './engine';
import { session, sseEvent, rpc, Transcript } from './transcript';
import type { Rule } from './types';

function model() {
  const t = new Transcript();
  session(t, 's1')({ body: rpc.request(1, 'tools/call'), sse: [sseEvent('1', rpc.result(1))] });
  return buildModel(t.capture());
}

const base = { title: 't', summary: 's' };

describe('rule engine', () => {
  it('stamps the rule id and the meta severity onto each report, keys in a fixed order', () => {
    const rule: Rule = {
      ...base,
      id: 'demo-rule',
      severity: 'warning',
      check: () => [{ time: 5, message: 'm', connectionId: 'c1' }],
    };
    const [finding] = runRules(model(), [rule]);
    expect(finding).toEqual({ rule: 'demo-rule', severity: 'warning', message: 'm', connectionId: 'c1', time: 5 });
    expect(Object.keys(finding ?? {})).toEqual(['rule', 'severity', 'message', 'connectionId', 'time']);
  });

  it('lets a report pick another severity only among those the meta declares', () => {
    const declared: Rule = {
      ...base,
      id: 'two-severities',
      severity: 'error',
      severities: ['error', 'warning'],
      check: () => [{ message: 'mild', severity: 'warning' }],
    };
    expect(runRules(model(), [declared]).map((f) => f.severity)).toEqual(['warning']);
    const undeclared: Rule = {
      ...base,
      id: 'one-severity',
      severity: 'error',
      check: () => [{ message: 'ok' }, { message: 'mild', severity: 'info' }],
    };
    expect(runRules(model(), [undeclared])).toEqual([
      {
        rule: 'one-severity',
        severity: 'info',
        message:
          'rule could not run on this capture: rule one-severity reported severity info, which its meta does not declare',
      },
    ]);
  });

  it('drops reports about sessions outside the rule eras and orders by time, then severity', () => {
    const stateless: Rule = {
      ...base,
      id: 'stateless-only',
      severity: 'error',
      eras: ['2026-07-28'],
      check: (m) => [{ message: 'x', sessionKey: m.sessions[0]?.key ?? '' }],
    };
    expect(runRules(model(), [stateless])).toEqual([]);
    const a: Rule = { ...base, id: 'a-info', severity: 'info', check: () => [{ message: 'i', time: 1 }] };
    const b: Rule = {
      ...base,
      id: 'b-error',
      severity: 'error',
      check: () => [
        { message: 'e', time: 1 },
        { message: 'early', time: 0 },
      ],
    };
    expect(runRules(model(), [a, b]).map((f) => f.message)).toEqual(['early', 'e', 'i']);
  });
});
