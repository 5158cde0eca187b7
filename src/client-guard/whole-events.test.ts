import { describe, expect, it } from 'vitest';
import { WholeEventGate, type Verdict } from './whole-events';

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Pushes `text` cut at every position given, judging with `judge`; returns what went out and how it ended. */
function run(text: string, cuts: number[], judge: (id: string) => Verdict = () => 'keep') {
  const gate = new WholeEventGate();
  const bytes = enc.encode(text);
  const out: string[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    for (const piece of gate.push(bytes.slice(from, cut), (event) => judge(event.lastEventId)))
      out.push(dec.decode(piece));
    from = cut;
  }
  const end = gate.finish();
  for (const piece of end.out) out.push(dec.decode(piece));
  return { text: out.join(''), pieces: out.length, torn: end.torn };
}

describe('WholeEventGate', () => {
  const stream = 'id: 1\ndata: {"a":1}\n\n: keep-alive\n\nid: 2\ndata: {"b":2}\n\nid: 3\ndata: {"c":';

  it('hands on every whole event and never the torn one, however the bytes are cut', () => {
    for (let cut = 0; cut <= stream.length; cut++) {
      const result = run(stream, [cut]);
      expect(result.text).toBe('id: 1\ndata: {"a":1}\n\n: keep-alive\n\nid: 2\ndata: {"b":2}\n\n');
      expect(result.torn?.id).toBe('3');
    }
  });

  it('hands on an event only once its blank line arrived', () => {
    const gate = new WholeEventGate();
    expect(gate.push(enc.encode('id: 1\ndata: x\n'), () => 'keep')).toEqual([]);
    expect(
      gate
        .push(enc.encode('\n'), () => 'keep')
        .map((b) => dec.decode(b))
        .join(''),
    ).toBe('id: 1\ndata: x\n\n');
  });

  it('sends the kept events of one chunk as one view of it', () => {
    const result = run('id: 1\ndata: a\n\nid: 2\ndata: b\n\n', []);
    expect(result.pieces).toBe(1);
  });

  it('leaves out dropped events whole and stops before a stopped one', () => {
    const text = 'id: 1\ndata: a\n\nid: 2\ndata: b\n\nid: 3\ndata: c\n\nid: 4\ndata: d\n\n';
    expect(run(text, [5, 20], (id) => (id === '2' ? 'drop' : 'keep')).text).toBe(
      'id: 1\ndata: a\n\nid: 3\ndata: c\n\nid: 4\ndata: d\n\n',
    );
    expect(run(text, [33], (id) => (id === '3' ? 'stop' : 'keep')).text).toBe('id: 1\ndata: a\n\nid: 2\ndata: b\n\n');
  });

  it('puts replacement bytes in place of an event', () => {
    const text = 'data: a\n\nid: 9\ndata: b\n\n';
    const replaced = run(text, [], (id) => (id === '9' ? { replace: enc.encode('data: B\n\n') } : 'keep'));
    expect(replaced.text).toBe('data: a\n\ndata: B\n\n');
  });

  it('keeps CRLF framing whole, and hands on the complete comment lines at a clean end', () => {
    const text = 'id: 1\r\ndata: a\r\n\r\n: ping\r\n: half';
    for (let cut = 0; cut <= text.length; cut++) {
      const result = run(text, [cut]);
      expect(result.text).toBe('id: 1\r\ndata: a\r\n\r\n: ping\r\n');
      expect(result.torn).toBeUndefined();
    }
  });

  it('withholds a torn event cut inside its id line', () => {
    const result = run('id: 1\ndata: a\n\nid: 4', []);
    expect(result.text).toBe('id: 1\ndata: a\n\n');
    expect(dec.decode(result.torn?.bytes)).toBe('id: 4');
  });
});
