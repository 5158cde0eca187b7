import { describe, expect, it } from 'vitest';
import { pack } from '../../protocol/parcel';
import type { ConnectionDelta } from '../../protocol/records';
import { createIntake } from './intake';
import type { HostCommand } from './messages';

const chunk = (t: number, text: string): ConnectionDelta => ({
  kind: 'chunk',
  id: 'c',
  t,
  bytes: new TextEncoder().encode(text),
});

/** Waits until `done` holds: the intake reads Blobs asynchronously. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('worker intake', () => {
  it('reads parcels into deltas and hands every command on in the order it was sent', async () => {
    const got: HostCommand[] = [];
    const take = createIntake(
      (command) => got.push(command),
      (text) => {
        throw new Error(text);
      },
    );
    const big = 'x'.repeat(1 << 20);
    take({ type: 'transport', seq: 1, message: { type: 'deltas', tabId: 1, parcels: [pack([chunk(1, big)])] } });
    // A command with no bytes, sent after the big parcel, must not overtake it.
    take({ type: 'recording', seq: 2, on: false });
    take({
      type: 'transport',
      seq: 3,
      message: { type: 'deltas', tabId: 1, parcels: [pack([chunk(2, 'a')]), pack([chunk(3, 'b')])] },
    });
    await until(() => got.length === 3);
    expect(got.map((c) => ('seq' in c ? c.seq : -1))).toEqual([1, 2, 3]);
    const texts = got.map((c) =>
      c.type === 'transport' && c.message.type === 'deltas'
        ? c.message.deltas.map((d) => (d.kind === 'chunk' ? new TextDecoder().decode(d.bytes) : ''))
        : c.type,
    );
    expect(texts).toEqual([[big], 'recording', ['a', 'b']]);
  });

  it('says so when a parcel cannot be read, and goes on with the next command', async () => {
    const got: string[] = [];
    const take = createIntake(
      (command) => got.push(command.type),
      (text) => got.push(text),
    );
    const parcel = pack([chunk(1, 'abc')]);
    take({
      type: 'transport',
      seq: 1,
      message: { type: 'deltas', tabId: 1, parcels: [{ ...parcel, bytes: new Blob(['ab']) }] },
    });
    take({ type: 'clear', seq: 2 });
    await until(() => got.length === 2);
    expect(got).toEqual(['Records from the page could not be read: Error: a parcel lost bytes on the way', 'clear']);
  });
});
