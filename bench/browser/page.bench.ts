// Node (bench/run.ts, under `flock /tmp/browser.lock`): the page-side benches in shared rounds (see rounds.ts): each
// round's fresh browser serves them all, one fresh tab each, in this order on both sides. panel-attached goes last,
// so the panel it opens cannot leave work behind for the others.
import { panelAttached } from './panel-attached.bench';
import { exitOnError, runPageBenches } from './rounds';
import { tapFirstEvent } from './tap-first-event.bench';
import { tapLongtasks } from './tap-longtasks.bench';
import { tapPosts } from './tap-posts.bench';
import { tapThroughput } from './tap-throughput.bench';

runPageBenches([tapThroughput(), tapFirstEvent(), tapLongtasks(), tapPosts(), panelAttached()]).catch(exitOnError);
