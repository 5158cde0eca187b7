// Panel analysis worker (and its in-thread fallback): hands the UI thread's commands to the host in the order they
// came, reading a transport message's parcels (their Blobs) into deltas first. The bytes are read here, off the UI
// thread, which only ever forwards the Blob handles.
import { unpackMessage } from '../../protocol/parcel';
import type { HostCommand, UiToWorker } from './messages';

export function createIntake(
  receive: (command: HostCommand) => void,
  failed: (text: string) => void,
): (command: UiToWorker) => void {
  let reading: Promise<void> = Promise.resolve();
  return (command) => {
    // Every command waits for the parcels of those before it: the host sees them in the order they were sent.
    reading = reading.then(async () => {
      if (command.type !== 'transport' || !('parcels' in command.message)) return receive(command as HostCommand);
      let feed;
      try {
        feed = await unpackMessage(command.message);
      } catch (error) {
        return failed(`Records from the page could not be read: ${String(error)}`);
      }
      receive({ type: 'transport', seq: command.seq, message: feed });
    });
  };
}
