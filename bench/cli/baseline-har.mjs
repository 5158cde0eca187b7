// Node (benches only): the HAR baseline, a whole process: JSON.parse of the file, then eventsource-parser over each
// event-stream body. Prints the event count.
import { readFileSync } from 'node:fs';
import { createParser } from 'eventsource-parser';

let events = 0;
const har = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const entry of har.log.entries) {
  const text = entry.response?.content?.text;
  if (typeof text !== 'string') continue;
  const parser = createParser({ onEvent: () => void events++ });
  parser.feed(text);
}
process.stdout.write(`${events}\n`);
