// Node (benches only): the raw-stream baseline, a whole process: the file read in 1 MiB pieces, decoded by a
// streaming TextDecoder and parsed by eventsource-parser, as the MCP SDK reads SSE. Prints the event count.
import { openSync, readSync } from 'node:fs';
import { createParser } from 'eventsource-parser';

let events = 0;
const parser = createParser({ onEvent: () => void events++ });
const decoder = new TextDecoder();
const fd = openSync(process.argv[2], 'r');
for (;;) {
  const buffer = Buffer.allocUnsafeSlow(1 << 20);
  const read = readSync(fd, buffer, 0, buffer.length, null);
  if (read === 0) break;
  parser.feed(decoder.decode(buffer.subarray(0, read), { stream: true }));
}
parser.feed(decoder.decode());
process.stdout.write(`${events}\n`);
