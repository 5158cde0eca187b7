// Node (bench/run.ts, under `flock /tmp/browser.lock`): the cold benches in shared rounds (see cold.ts): a fresh
// browser for every measurement, both sides alternated per round.
import { runColdBenches } from './cold';
import { exitOnError } from './rounds';
import { tapFirstEventCold } from './tap-first-event-cold.bench';
import { tapPostsCold } from './tap-posts-cold.bench';
import { tapThroughputCold } from './tap-throughput-cold.bench';

runColdBenches([tapFirstEventCold(), tapThroughputCold(), tapPostsCold()]).catch(exitOnError);
