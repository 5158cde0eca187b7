// Runs in Node (the lab's real servers): a port free right now on 127.0.0.1, for a server started as a child process.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A port the OS picks and frees at once; the caller's server binds it next (and retries if someone took it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
