// Node (benches; a child process of throughput.bench.ts): the live origin of the 64 MB answer in its own process, as a
// real server is, so the proxy it is measured through does not share its thread. Prints the URL, then serves until
// its parent closes stdin.
import { BIG_BYTES, bigBody, startBigOrigin } from './big-stream';

const origin = await startBigOrigin(bigBody(BIG_BYTES));
process.stdout.write(`${origin.url}\n`);
process.stdin.resume();
process.stdin.once('end', () => void origin.close().then(() => process.exit(0)));
