// Node (benches only): the raw-stream baseline, a whole process: the file read in 1 MiB pieces, decoded by a
// streaming TextDecoder and parsed by eventsource-parser, as the MCP SDK reads SSE. Prints the event count.
// A second argument sets the piece size in bytes (cli-raw-mixed reads 64 KiB pieces, see mixed.bench.ts).
import { openSync, readSync } from 'node:fs';
import { createParser } from 'eventsource-parser';

let events = 0;
const parser = createParser({ onEvent: () => void events++ });
const decoder = new TextDecoder();
const fd = openSync(process.argv[2], 'r');
const pieceBytes = Number(process.argv[3] ?? 1 << 20);
for (;;) {
  const buffer = Buffer.allocUnsafeSlow(pieceBytes);
  const read = readSync(fd, buffer, 0, buffer.length, null);
  if (read === 0) break;
  parser.feed(decoder.decode(buffer.subarray(0, read), { stream: true }));
}
parser.feed(decoder.decode());
process.stdout.write(`${events}\n`);
