import { describe, expect, it } from 'vitest';
import { FirstDeliveries } from './first-deliveries';

/** Feeds ids one by one as IdIndex does and checks every answer against a plain Map. */
function expectSameAsMap(ids: readonly string[], probes: readonly string[] = []): void {
  const index = new FirstDeliveries((i) => ids[i] as string);
  const map = new Map<string, number>();
  for (const [i, id] of ids.entries()) {
    expect(index.firstOr(id, i), `${id} (#${i})`).toBe(map.get(id));
    if (!map.has(id)) map.set(id, i);
  }
  for (const id of [...ids, ...probes]) expect(index.get(id), id).toBe(map.get(id));
}

/** A small deterministic generator (tests must not depend on Math.random). */
function numbers(seed: number, count: number, spread: number): number[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % spread;
  });
}

describe('first deliveries', () => {
  it('find each id as a Map would: counters, replays, epochs, and ids that do not end in a plain number', () => {
    const counter = Array.from({ length: 50 }, (_, i) => String(i + 1));
    expectSameAsMap(
      [
        ...counter,
        ...counter.slice(20, 30),
        'a:1',
        'a:2',
        'b:1',
        'a:3',
        '0',
        '00',
        '007',
        '7',
        'x_1733000000000_ab',
        '',
      ],
      ['51', 'a:4', 'b:2', '07', '1234567890123456', '-1'],
    );
  });

  it('find each id as a Map would when numbers come in any order, past the most runs it keeps', () => {
    for (const seed of [3, 11]) expectSameAsMap(numbers(seed, 1500, 900).map(String), ['899', '900', '901']);
  });

  it('find each id as a Map would past the most prefixes they split, and for ids of no counter at all', () => {
    // SDK-style ids whose random part ends in digits: a prefix of their own each.
    const sdk = Array.from({ length: 300 }, (_, i) => `s1_${1795967688000 + i}_k${(i * 7919).toString(36)}${i % 10}`);
    const words = numbers(5, 2000, 700).map((n) => `w${n.toString(36)}x`);
    expectSameAsMap([...sdk, ...sdk.slice(100, 150), ...words], ['s1_0_k0', 'wzzzx']);
  });

  it('keep numbers that meet a later run apart from it', () => {
    expectSameAsMap(['5', '6', '1', '2', '3', '4', '5', '7', '5', '4', '8']);
  });
});
