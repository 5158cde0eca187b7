// Node (`npm run bench cli-har`): the CLI on a 200 MB HAR (one session's tools/call POSTs answered by event streams
// of progress and a 1 MB result) against JSON.parse of the file + eventsource-parser on its bodies, whole processes.
import { join } from 'node:path';
import { writeHar } from './inputs';
import { baselineArgs, cliArgs, compare, scratch } from './processes';

const { dir, done } = scratch();
try {
  const file = join(dir, 'session-200mb.har');
  writeHar(file, 200e6, 4e6);
  await compare(
    'cli-har',
    'cli-har: analyze a 200 MB HAR vs JSON.parse + eventsource-parser of its bodies',
    baselineArgs('baseline-har.mjs', file),
    cliArgs(file),
  );
} finally {
  done();
}
