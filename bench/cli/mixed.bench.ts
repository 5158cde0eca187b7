// Node (`npm run bench cli-raw-mixed`): the CLI on a 200 MB raw event stream of 2,000 small progress notifications
// then one 1 MiB result, repeated (issue 32), against eventsource-parser + TextDecoder alone on the same file, whole
// processes.
//
// The baseline reads 64 KiB pieces (a stream reader's size: fs.createReadStream's default, what a socket hands over).
// With cli-raw-200mb's 1 MiB pieces it costs twice the CPU on this input: each piece decodes into a string too big
// for V8's young generation (over 128 KiB), allocated and freed in its large-object space, and that weak baseline
// made the CLI look faster than it (0.85). 64 KiB reproduces issue 32's figures (baseline 1.25 s, 1.77x).
import { join } from 'node:path';
import { writeMixedStream } from './inputs';
import { baselineArgs, cliArgs, compare, scratch } from './processes';

const { dir, done } = scratch();
try {
  const file = join(dir, 'mixed-200mb.sse');
  writeMixedStream(file, 200e6);
  await compare(
    'cli-raw-mixed',
    'cli-raw-mixed: analyze a 200 MB raw stream of 2,000 progress events and a 1 MiB result, repeated, vs eventsource-parser + TextDecoder (64 KiB pieces)',
    baselineArgs('baseline-raw.mjs', file, String(64 * 1024)),
    cliArgs(file),
    5,
    { ours: 'CLI', target: 1.5, shown: '<=1.5' },
  );
} finally {
  done();
}
