// Node (`npm run bench cli-raw-200mb`): the CLI on a 200 MB raw event stream (progress notifications and four 1 MB
// results) against eventsource-parser + TextDecoder alone on the same file, whole processes.
import { join } from 'node:path';
import { writeRawStream } from './inputs';
import { baselineArgs, cliArgs, compare, scratch } from './processes';

const { dir, done } = scratch();
try {
  const file = join(dir, 'progress-200mb.sse');
  writeRawStream(file, 200e6, 4);
  await compare(
    'cli-raw-200mb',
    'cli-raw-200mb: analyze a 200 MB raw stream vs eventsource-parser + TextDecoder',
    baselineArgs('baseline-raw.mjs', file),
    cliArgs(file),
  );
} finally {
  done();
}
