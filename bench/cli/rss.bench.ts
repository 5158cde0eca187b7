// Node (`npm run bench cli-rss-1gb`): the CLI's peak RSS on a 1 GB raw stream and on a 1 GB HAR, generated into a
// temporary folder one at a time (removed after each), one run each: the line reports the larger peak.
import { join } from 'node:path';
import { writeHar, writeRawStream } from './inputs';
import { cliArgs, runNode, scratch } from './processes';

const TARGET_MB = 300;
const peaks: number[] = [];
for (const kind of ['raw', 'har'] as const) {
  const { dir, done } = scratch();
  try {
    const file = join(dir, kind === 'raw' ? 'progress-1gb.sse' : 'session-1gb.har');
    if (kind === 'raw') writeRawStream(file, 1e9, 20);
    else writeHar(file, 1e9, 4e6);
    const run = await runNode(cliArgs(file));
    peaks.push(run.rssMb);
    process.stdout.write(
      `cli-rss-1gb ${kind}: peak RSS ${run.rssMb.toFixed(0)} MB, ${(run.ms / 1000).toFixed(1)} s, exit ${run.code}\n`,
    );
  } finally {
    done();
  }
}
const rss = Math.max(...peaks);
process.stdout.write(
  `BENCH cli-rss-1gb rss=${rss.toFixed(0)}MB target=${TARGET_MB} ${rss <= TARGET_MB ? 'PASS' : 'FAIL'}\n`,
);
